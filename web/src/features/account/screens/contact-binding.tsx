import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'wouter'
import { PHONE_PATTERN } from '@tradegate/shared'
import { CodeField, Field, Form, SubmitButton } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Stat } from '../../../components/stat'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { bindEmail, sendBindEmailCode } from '../api/bind-email'
import { bindPhone, sendBindPhoneCode } from '../api/bind-phone'
import { useAccountInfo } from '../../../lib/api/get-info'

const CHANNELS = {
  email: {
    title: 'account.email',
    label: 'auth.methods.email',
    inputType: 'email',
    boundClassName: 'stat-value',
    sendCode: sendBindEmailCode,
    bind: bindEmail,
  },
  phone: {
    title: 'account.phone',
    label: 'auth.methods.phone',
    inputType: 'tel',
    boundClassName: 'stat-value num',
    sendCode: sendBindPhoneCode,
    bind: bindPhone,
  },
} as const

const PHONE = new RegExp(PHONE_PATTERN)

/** Binds an e-mail address or a phone number (by route) with a code sent to it; shows it once bound. */
export default function ContactBindingScreen() {
  const { t } = useTranslation()
  const [location] = useLocation()
  const channel = location === '/phoneAuth' ? 'phone' : 'email'
  const { title, label, inputType, boundClassName, sendCode, bind } = CHANNELS[channel]
  const info = useAccountInfo()
  const [contact, setContact] = useState('')
  const [code, setCode] = useState('')
  const phoneRefused = channel === 'phone' && contact.trim() !== '' && !PHONE.test(contact.trim())
  const refusePhone = () => {
    if (!phoneRefused) return false
    showToast(t('errors.invalidPhone'))
    return true
  }
  const submit = useSubmit({ checkWhere: 'submit.where.account' })
  const run = () =>
    submit.run(async () => {
      if (refusePhone()) return
      await bind(contact.trim(), code.trim())
      showToast(t('common.success'))
      void info.mutate()
    })
  const bound = info.data?.user[channel]
  return (
    <Screen title={t(title)}>
      {bound ? (
        <Stat className="card stat" label={t('account.bound')} valueClassName={boundClassName}>
          {bound}
        </Stat>
      ) : (
        <Form onSubmit={run}>
          <Field
            label={t(label)}
            name={channel}
            type={inputType}
            value={contact}
            onValueChange={setContact}
          />
          {channel === 'phone' && (
            <p className={phoneRefused ? 'note note-warning' : 'muted'} data-testid="phone-rule">
              {phoneRefused ? t('errors.invalidPhone') : t('money.phoneRule')}
            </p>
          )}
          <CodeField
            value={code}
            onValueChange={setCode}
            sendDisabled={!contact.trim() || phoneRefused}
            onSend={() =>
              refusePhone() ? Promise.reject(new Error('invalid phone')) : sendCode(contact.trim())
            }
          />
          <SubmitNotice submit={submit} />
          <SubmitButton busy={submit.busy} disabled={!contact || !code || phoneRefused}>
            {t('account.bind')}
          </SubmitButton>
        </Form>
      )}
    </Screen>
  )
}
