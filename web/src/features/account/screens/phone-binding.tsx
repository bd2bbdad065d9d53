import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Field, SendCodeButton, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { bindPhone, sendBindPhoneCode } from '../api/bind-phone'
import { useAccountInfo } from '../api/get-info'

export default function PhoneBindingScreen() {
  const { t } = useTranslation()
  const info = useAccountInfo()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const { busy, run } = useSubmit(async () => {
    await bindPhone(phone.trim(), code.trim())
    showToast(t('common.success'))
    void info.mutate()
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run()
  }
  const bound = info.data?.user.phone
  return (
    <Screen title={t('account.phone')}>
      {bound ? (
        <div className="card stat">
          <span className="stat-label">{t('account.bound')}</span>
          <span className="stat-value num">{bound}</span>
        </div>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <Field
            label={t('auth.methods.phone')}
            name="phone"
            type="tel"
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
          />
          <Field
            label={t('auth.code')}
            name="code"
            inputMode="numeric"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            end={
              <SendCodeButton
                disabled={!phone.trim()}
                onSend={() => sendBindPhoneCode(phone.trim()).then(() => showToast(t('auth.codeSent')))}
              />
            }
          />
          <SubmitButton busy={busy} disabled={!phone || !code}>
            {t('account.bind')}
          </SubmitButton>
        </form>
      )}
    </Screen>
  )
}
