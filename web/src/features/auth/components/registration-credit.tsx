import { useTranslation } from '../../../lib/i18n'
import { Link, useLocation } from 'wouter'
import { Screen } from '../../../components/screen'
import { useSettings } from '../../../lib/settings'

/** What a new account was credited on registration, and the way on to trading. */
export function RegistrationCredit({ credit }: { credit: string }) {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const configured = useSettings().REGISTRATION_CREDIT
  return (
    <Screen title={t('auth.register')} back={false} className="auth">
      <div className="card credit-card" data-testid="registration-credit">
        <p className="muted">{t('auth.registeredTitle')}</p>
        <p className="credit-amount num">
          {credit || configured.amount} {configured.coin.toUpperCase()}
        </p>
        <p>{t('auth.creditHint')}</p>
      </div>
      <button type="button" className="button button-primary button-block" onClick={() => navigate('/')}>
        {t('auth.startTrading')}
      </button>
    </Screen>
  )
}

/** The box a new user ticks to accept the user agreement and the privacy policy. */
export function AgreementCheck({
  agreed,
  onChange,
}: {
  agreed: boolean
  onChange: (agreed: boolean) => void
}) {
  const { t } = useTranslation()
  return (
    <label className="check">
      <input
        type="checkbox"
        name="agree"
        checked={agreed}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>
        {t('auth.agreePrefix')} <Link href="/userAgreement">{t('legal.userAgreement')}</Link> {t('auth.and')}{' '}
        <Link href="/privacyPolicy">{t('legal.privacyPolicy')}</Link>
      </span>
    </label>
  )
}
