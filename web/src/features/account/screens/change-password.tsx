import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'wouter'
import { Field, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { changeLoginPassword } from '../api/change-login-password'

export default function ChangePasswordScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const [oldPwd, setOldPwd] = useState('')
  const [newPwd, setNewPwd] = useState('')
  const [confirm, setConfirm] = useState('')
  const { busy, run } = useSubmit(async () => {
    if (newPwd.length < 6) return showToast(t('auth.passwordLength'))
    if (newPwd !== confirm) return showToast(t('auth.passwordMismatch'))
    await changeLoginPassword(oldPwd, newPwd)
    showToast(t('common.success'))
    navigate('/secrety')
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run()
  }
  return (
    <Screen title={t('account.loginPassword')}>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label={t('account.oldPassword')}
          name="oldPwd"
          type="password"
          autoComplete="current-password"
          value={oldPwd}
          onChange={(event) => setOldPwd(event.target.value)}
        />
        <Field
          label={t('auth.newPassword')}
          name="newPwd"
          type="password"
          autoComplete="new-password"
          value={newPwd}
          onChange={(event) => setNewPwd(event.target.value)}
        />
        <Field
          label={t('auth.confirmPassword')}
          name="confirm"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
        <SubmitButton busy={busy} disabled={!oldPwd || !newPwd}>
          {t('common.confirm')}
        </SubmitButton>
      </form>
    </Screen>
  )
}
