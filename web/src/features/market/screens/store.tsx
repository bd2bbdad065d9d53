import { useTranslation } from 'react-i18next'
import { Screen } from '../../../components/screen'

// Placeholder: the trading screens replace this file.
export default function StoreScreen() {
  const { t } = useTranslation()
  return (
    <Screen title={t('tabBar.market')} back={false}>
      <p className="placeholder">{t('tabBar.market')}</p>
    </Screen>
  )
}
