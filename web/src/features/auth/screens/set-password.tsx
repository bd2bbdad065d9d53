import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Redirect, useLocation } from 'wouter'
import { Form, NewPasswordFields, SubmitButton, passwordProblem } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { resetPassword } from '../api/reset-password'
import { markResetDone, takeReset } from '../lib/password-reset'

/** Step two of a password reset: the new password, sent with the e-mail and code from step one. */
export default function SetPasswordScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const [reset] = useState(takeReset)
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const submit = useSubmit({ checkWhere: 'submit.where.account' })
  const run = () =>
    submit.run(async () => {
      if (!reset) return
      const problem = passwordProblem(password, confirm)
      if (problem) return showToast(t(problem))
      await resetPassword({ email: reset.email, emailCode: reset.emailCode, newPwd: password })
      // the sign-in screen tells the outcome where the new password is used: a toast would cover its form
      markResetDone()
      navigate('/login', { replace: true })
    })
  if (!reset) return <Redirect to="/forget" replace />

  return (
    <Screen title={t('auth.setPassword')} className="auth">
      <p className="muted" data-testid="ends-sessions">
        {t('auth.resetEndsSessions')}
      </p>
      <Form onSubmit={run}>
        <NewPasswordFields
          label={t('auth.newPassword')}
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
          withPlaceholders
        />
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!password}>
          {t('common.confirm')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
