import { useTranslation } from '../../../lib/i18n'
import { LegalText } from '../components/legal-text'

export default function PrivacyPolicyScreen() {
  const { t } = useTranslation()
  return <LegalText title={t('legal.privacyPolicy')} sections="legal.privacySections" />
}
