import { useTranslation } from 'react-i18next'
import { Screen } from '../../../components/screen'

// Placeholder: the trading screens replace this file.
export default function TradeChartScreen() {
  const { t } = useTranslation()
  return (
    <Screen title={t('trading.chart')} back={true}>
      <p className="placeholder">{t('trading.chart')}</p>
    </Screen>
  )
}
