import { useState } from 'react'
import { useTranslation } from '../lib/i18n'
import { signOutByUser } from '../lib/user'

/** Sign-out in two steps: the first press asks, the second signs out, so a stray tap never does. */
export function SignOutButton({ onSignedOut, testId }: { onSignedOut: () => void; testId: string }) {
  const { t } = useTranslation()
  const [asking, setAsking] = useState(false)
  if (!asking)
    return (
      <button
        type="button"
        className="button button-block"
        onClick={() => setAsking(true)}
        data-testid={testId}
      >
        {t('auth.logout')}
      </button>
    )
  return (
    <div className="form" role="group" aria-label={t('signOut.question')} data-testid="sign-out-confirm">
      <p className="note">{t('signOut.question')}</p>
      <div className="button-row">
        <button type="button" className="button" onClick={() => setAsking(false)}>
          {t('signOut.stay')}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void signOutByUser().then(onSignedOut)}
          data-testid="sign-out-confirmed"
        >
          {t('auth.logout')}
        </button>
      </div>
    </div>
  )
}
