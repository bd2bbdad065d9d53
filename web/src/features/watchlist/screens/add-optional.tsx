import { useTranslation } from 'react-i18next'
import { Screen } from '../../../components/screen'

// Placeholder: the trading screens replace this file.
export default function AddOptionalScreen() {
  const { t } = useTranslation()
  return (
    <Screen title={t('trading.addOptional')} back={true}>
      <p className="placeholder">{t('trading.addOptional')}</p>
    </Screen>
  )
}
