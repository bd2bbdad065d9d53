import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Field, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { changeFundPassword, setFundPassword } from '../api/fund-password'
import { useAccountInfo } from '../api/get-info'

/** Sets the fund password the first time, changes it afterwards. */
export default function FundPasswordScreen() {
  const { t } = useTranslation()
  const info = useAccountInfo()
  const hasFundPassword = info.data?.user.hasFundPassword ?? false
  const [oldPwd, setOldPwd] = useState('')
  const [newPwd, setNewPwd] = useState('')
  const { busy, run } = useSubmit(async () => {
    if (newPwd.length < 6) return showToast(t('auth.passwordLength'))
    if (hasFundPassword) await changeFundPassword(oldPwd, newPwd)
    else await setFundPassword(newPwd)
    showToast(t('common.success'))
    setOldPwd('')
    setNewPwd('')
    void info.mutate()
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run()
  }
  return (
    <Screen title={t('account.fundPassword')}>
      <form className="form" onSubmit={submit} noValidate>
        {hasFundPassword && (
          <Field
            label={t('account.oldPassword')}
            name="oldPwd"
            type="password"
            value={oldPwd}
            onChange={(event) => setOldPwd(event.target.value)}
          />
        )}
        <Field
          label={t('auth.newPassword')}
          name="newPwd"
          type="password"
          value={newPwd}
          onChange={(event) => setNewPwd(event.target.value)}
        />
        <SubmitButton busy={busy || info.isLoading} disabled={!newPwd}>
          {t('common.confirm')}
        </SubmitButton>
      </form>
    </Screen>
  )
}
