import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Link, useSearchParams } from 'wouter'
import { PHONE_PATTERN, type CallData, type LoginMethod } from '@tradegate/shared'
import {
  CodeField,
  Field,
  Form,
  NewPasswordFields,
  SubmitButton,
  passwordProblem,
} from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { completeSignIn } from '../../../lib/user'
import { register } from '../api/register'
import { sendCode } from '../api/send-code'
import { LOGIN_METHODS, MethodTabs, UsernameField } from '../components/method-tabs'
import { AgreementCheck, RegistrationCredit } from '../components/registration-credit'

const CODE_METHODS: readonly LoginMethod[] = ['email', 'phone', 'account']
const PHONE = new RegExp(PHONE_PATTERN)

export default function RegisterScreen() {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const settings = useSettings()
  const registration = settings.REGISTER_SETTING
  const methods = LOGIN_METHODS.filter((method) => registration[method])
  const [chosen, setChosen] = useState<LoginMethod | null>(null)
  const method = chosen && methods.includes(chosen) ? chosen : (methods[0] ?? 'email')
  const needsCode =
    CODE_METHODS.includes(method) && settings.VERIFY_CODE_SETTING[method as 'email' | 'phone' | 'account']
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [code, setCode] = useState('')
  const [inviteCode, setInviteCode] = useState(search.get('inviteCode') ?? '')
  const [agreed, setAgreed] = useState(false)
  const [registered, setRegistered] = useState<CallData<'register'> | null>(null)

  const phoneRefused = method === 'phone' && username.trim() !== '' && !PHONE.test(username.trim())
  const submit = useSubmit({ checkWhere: 'submit.where.account' })
  const run = () =>
    submit.run(async () => {
      if (phoneRefused) return showToast(t('errors.invalidPhone'))
      const problem = passwordProblem(password, confirm)
      if (problem) return showToast(t(problem))
      if (registration.inviteCodeRequired && !inviteCode.trim())
        return showToast(t('auth.inviteCodeRequired'))
      if (!agreed) return showToast(t('auth.agreeRequired'))
      const session = await register({
        type: method,
        username: username.trim(),
        password,
        ...(needsCode ? { code: code.trim() } : {}),
        ...(inviteCode.trim() ? { inviteCode: inviteCode.trim() } : {}),
      })
      await completeSignIn(session)
      setRegistered(session)
    })

  const requestCode = () => {
    if (phoneRefused) {
      showToast(t('errors.invalidPhone'))
      return Promise.reject(new Error('invalid phone'))
    }
    const target = method === 'phone' ? { phone: username.trim() } : { email: username.trim() }
    return sendCode(target, 'register')
  }

  if (registered) return <RegistrationCredit credit={registered.credit} />

  return (
    <Screen title={t('auth.register')} className="auth">
      <div className="auth-head">
        <h2>{t('auth.createAccount')}</h2>
        <p>
          {t('auth.registerHint', {
            amount: settings.REGISTRATION_CREDIT.amount,
            coin: settings.REGISTRATION_CREDIT.coin.toUpperCase(),
          })}
        </p>
      </div>
      <MethodTabs methods={methods} value={method} onChange={setChosen} />
      <Form onSubmit={run}>
        <UsernameField method={method} value={username} onValueChange={setUsername} />
        {needsCode && (
          <CodeField
            autoComplete="one-time-code"
            value={code}
            onValueChange={setCode}
            placeholder={t('auth.placeholders.code')}
            sendDisabled={!username.trim()}
            onSend={requestCode}
          />
        )}
        <NewPasswordFields
          label={t('auth.password')}
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
          withPlaceholders
        />
        <Field
          label={registration.inviteCodeRequired ? t('auth.inviteCode') : t('auth.inviteCodeOptional')}
          name="inviteCode"
          value={inviteCode}
          onValueChange={setInviteCode}
          placeholder={t('auth.placeholders.inviteCode')}
        />
        <AgreementCheck agreed={agreed} onChange={setAgreed} />
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!username || !password}>
          {t('auth.register')}
        </SubmitButton>
        <div className="form-links">
          <span>{t('auth.haveAccount')}</span>
          <Link href="/login">{t('auth.login')}</Link>
        </div>
      </Form>
    </Screen>
  )
}
