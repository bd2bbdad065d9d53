import { useTranslation } from 'react-i18next'
import { Screen } from '../../../components/screen'
import { useCoinList } from '../../../lib/settings'
import { OptionPanel } from '../components/option-panel'
import '../../trade/trading.css'

/** The options entry of the navigation: option coins, their fees, and the rules. */
export default function OptionScreen() {
  const { t } = useTranslation()
  const coinList = useCoinList()
  return (
    <Screen title={t('option.title')} className="option-screen">
      <div className="option-layout">
        <OptionPanel coins={coinList?.optionList ?? []} />
      </div>
    </Screen>
  )
}
