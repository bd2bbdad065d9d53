import { useTranslation } from '../../../lib/i18n'
import { LegalText } from '../components/legal-text'

export default function UserAgreementScreen() {
  const { t } = useTranslation()
  return <LegalText title={t('legal.userAgreement')} sections="legal.agreementSections" />
}
