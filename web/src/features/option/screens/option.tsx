import { useTranslation } from 'react-i18next'
import { Screen } from '../../../components/screen'

// Placeholder: the trading screens replace this file.
export default function OptionScreen() {
  const { t } = useTranslation()
  return (
    <Screen title={t('menu.option')} back={true}>
      <p className="placeholder">{t('menu.option')}</p>
    </Screen>
  )
}
