import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Redirect, useLocation } from 'wouter'
import { Field, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { resetPassword } from '../api/reset-password'
import { clearReset, takeReset } from '../components/password-reset'

/** Step two of a password reset: the new password, sent with the e-mail and code from step one. */
export default function SetPasswordScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const [reset] = useState(takeReset)
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const { busy, run } = useSubmit(async () => {
    if (!reset) return
    if (password.length < 6) return showToast(t('auth.passwordLength'))
    if (password !== confirm) return showToast(t('auth.passwordMismatch'))
    await resetPassword({ email: reset.email, emailCode: reset.emailCode, newPwd: password })
    clearReset()
    showToast(t('auth.passwordReset'))
    navigate('/login', { replace: true })
  })
  if (!reset) return <Redirect to="/forget" replace />

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run()
  }

  return (
    <Screen title={t('auth.setPassword')} className="auth">
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label={t('auth.newPassword')}
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          placeholder={t('auth.placeholders.password')}
        />
        <Field
          label={t('auth.confirmPassword')}
          name="confirm"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          placeholder={t('auth.placeholders.confirmPassword')}
        />
        <SubmitButton busy={busy} disabled={!password}>
          {t('common.confirm')}
        </SubmitButton>
      </form>
    </Screen>
  )
}
