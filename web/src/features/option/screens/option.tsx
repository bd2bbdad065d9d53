import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Screen } from '../../../components/screen'
import { NoData } from '../../../components/no-data'
import { useCoinList } from '../../../lib/settings'
import { OptionTrading } from '../components/option-trading'
import '../../../components/trading.css'
import { TabList } from '../../../components/tab-list'

/** The options entry of the navigation: pick an option coin, then trade its chain. */
export default function OptionScreen() {
  const { t } = useTranslation()
  const coins = useCoinList()?.optionList ?? []
  const [chosen, setChosen] = useState<string | null>(null)
  const coin = coins.find((row) => row.coin === chosen)?.coin ?? coins[0]?.coin
  return (
    <Screen title={t('option.title')} className="option-screen">
      <TabList
        className="tab-strip option-coins"
        itemClassName="tab-strip-item"
        label={t('option.coins')}
        items={coins.map((row) => ({
          value: row.coin,
          label: row.showSymbol,
          data: { 'data-testid': 'option-coin', 'data-coin': row.coin },
        }))}
        value={coin}
        onChange={setChosen}
      />
      {coin ? (
        <div className="option-page">
          <OptionTrading key={coin} coin={coin} />
        </div>
      ) : (
        <NoData />
      )}
    </Screen>
  )
}
