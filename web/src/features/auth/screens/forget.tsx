import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'wouter'
import { CodeField, Field, Form, SubmitButton } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { sendCode } from '../api/send-code'
import { rememberReset } from '../lib/password-reset'

/** Step one of a password reset: the e-mail and the code sent to it. */
export default function ForgetScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')

  const filled = email.trim() !== '' && code.trim() !== ''
  const next = () => {
    if (!filled) return
    rememberReset({ email: email.trim(), emailCode: code.trim() })
    navigate('/setpwd')
  }

  return (
    <Screen title={t('auth.forgotPassword')} className="auth">
      <div className="auth-head">
        <h2>{t('auth.resetTitle')}</h2>
        <p>{t('auth.resetHint')}</p>
      </div>
      <Form onSubmit={next}>
        <Field
          label={t('auth.methods.email')}
          name="email"
          type="email"
          value={email}
          onValueChange={setEmail}
          placeholder={t('auth.placeholders.email')}
        />
        <CodeField
          value={code}
          onValueChange={setCode}
          placeholder={t('auth.placeholders.code')}
          sendDisabled={!email.trim()}
          onSend={() => sendCode({ email: email.trim() }, 'forget')}
        />
        <SubmitButton busy={false} disabled={!filled}>
          {t('common.next')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
