import { useTranslation } from 'react-i18next'
import { Screen } from '../../../components/screen'

// Placeholder: the trading screens replace this file.
export default function TradeScreen() {
  const { t } = useTranslation()
  return (
    <Screen title={t('tabBar.trade')} back={false}>
      <p className="placeholder">{t('tabBar.trade')}</p>
    </Screen>
  )
}
