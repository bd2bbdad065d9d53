import { useTranslation } from 'react-i18next'
import { Screen } from '../../../components/screen'

// Placeholder: the trading screens replace this file.
export default function SearchScreen() {
  const { t } = useTranslation()
  return (
    <Screen title={t('trading.search')} back={true}>
      <p className="placeholder">{t('trading.search')}</p>
    </Screen>
  )
}
