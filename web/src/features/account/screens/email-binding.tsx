import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Field, SendCodeButton, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { bindEmail, sendBindEmailCode } from '../api/bind-email'
import { useAccountInfo } from '../api/get-info'

export default function EmailBindingScreen() {
  const { t } = useTranslation()
  const info = useAccountInfo()
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const { busy, run } = useSubmit(async () => {
    await bindEmail(email.trim(), code.trim())
    showToast(t('common.success'))
    void info.mutate()
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run()
  }
  const bound = info.data?.user.email
  return (
    <Screen title={t('account.email')}>
      {bound ? (
        <div className="card stat">
          <span className="stat-label">{t('account.bound')}</span>
          <span className="stat-value">{bound}</span>
        </div>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <Field
            label={t('auth.methods.email')}
            name="email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Field
            label={t('auth.code')}
            name="code"
            inputMode="numeric"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            end={
              <SendCodeButton
                disabled={!email.trim()}
                onSend={() => sendBindEmailCode(email.trim()).then(() => showToast(t('auth.codeSent')))}
              />
            }
          />
          <SubmitButton busy={busy} disabled={!email || !code}>
            {t('account.bind')}
          </SubmitButton>
        </form>
      )}
    </Screen>
  )
}
