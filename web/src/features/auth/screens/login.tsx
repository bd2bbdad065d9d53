import { useEffect, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Link, useLocation, useSearchParams } from 'wouter'
import type { LoginMethod } from '@tradegate/shared'
import { Field, Form, SubmitButton, passwordProblem } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { returnPathOf } from '../../../lib/return-path'
import { sessionEndReason } from '../../../lib/session'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { completeSignIn } from '../../../lib/user'
import { login } from '../api/login'
import { forgetResetDone, resetDone } from '../lib/password-reset'
import { LOGIN_METHODS, MethodTabs, UsernameField } from '../components/method-tabs'

export default function LoginScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const [search] = useSearchParams()
  // read once: signing in forgets it
  const [ended] = useState(sessionEndReason)
  const [reset] = useState(resetDone)
  useEffect(forgetResetDone, [])
  const settings = useSettings()
  const methods = LOGIN_METHODS.filter((method) => settings.LOGIN_SETTING[method])
  const [chosen, setChosen] = useState<LoginMethod | null>(null)
  const method = chosen && methods.includes(chosen) ? chosen : (methods[0] ?? 'email')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')

  const submit = useSubmit({ checkWhere: 'submit.where.account' })
  const run = () =>
    submit.run(async () => {
      const problem = passwordProblem(password)
      if (problem) return showToast(t(problem))
      const session = await login({ type: method, username: username.trim(), password })
      await completeSignIn(session)
      showToast(t('auth.loginSuccess'))
      // back to the screen the user had open when the app found them signed out
      navigate(returnPathOf(search.get('next')) ?? '/', { replace: true })
    })

  return (
    <Screen title={t('auth.login')} className="auth">
      <div className="auth-head">
        <h2>{t('auth.welcomeBack')}</h2>
        <p>{t('auth.loginHint')}</p>
      </div>
      {reset && (
        <p className="note" role="alert" data-testid="password-reset">
          {t('auth.passwordReset')}
        </p>
      )}
      {ended && (
        <p className="note note-warning" role="alert" data-testid="session-ended">
          {t(ended === 'newPassword' ? 'auth.newPasswordSignedOut' : 'auth.sessionEnded')}
        </p>
      )}
      <MethodTabs methods={methods} value={method} onChange={setChosen} />
      <Form onSubmit={run}>
        <UsernameField method={method} value={username} onValueChange={setUsername} required />
        <Field
          label={t('auth.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
          placeholder={t('auth.placeholders.password')}
          required
        />
        <div className="form-links">
          <Link href="/forget">{t('auth.forgotPassword')}</Link>
          <Link href="/register">{t('auth.register')}</Link>
        </div>
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!username || !password}>
          {t('auth.login')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
