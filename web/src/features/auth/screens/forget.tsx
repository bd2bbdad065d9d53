import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'wouter'
import { Field, SendCodeButton, SubmitButton } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { sendCode } from '../api/send-code'
import { rememberReset } from '../components/password-reset'

/** Step one of a password reset: the e-mail and the code sent to it. */
export default function ForgetScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!email.trim() || !code.trim()) return showToast(t('auth.fillAll'))
    rememberReset({ email: email.trim(), emailCode: code.trim() })
    navigate('/setpwd')
  }

  return (
    <Screen title={t('auth.forgotPassword')} className="auth">
      <div className="auth-head">
        <h2>{t('auth.resetTitle')}</h2>
        <p>{t('auth.resetHint')}</p>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label={t('auth.methods.email')}
          name="email"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder={t('auth.placeholders.email')}
        />
        <Field
          label={t('auth.code')}
          name="code"
          inputMode="numeric"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          placeholder={t('auth.placeholders.code')}
          end={
            <SendCodeButton
              disabled={!email.trim()}
              onSend={() =>
                sendCode({ email: email.trim() }, 'forget').then(() => showToast(t('auth.codeSent')))
              }
            />
          }
        />
        <SubmitButton busy={false}>{t('common.next')}</SubmitButton>
      </form>
    </Screen>
  )
}
