import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Field, Form, SubmitButton, passwordProblem, useSubmit } from '../../../components/form'
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
    const problem = passwordProblem(newPwd)
    if (problem) return showToast(t(problem))
    if (hasFundPassword) await changeFundPassword(oldPwd, newPwd)
    else await setFundPassword(newPwd)
    showToast(t('common.success'))
    setOldPwd('')
    setNewPwd('')
    void info.mutate()
  })
  return (
    <Screen title={t('account.fundPassword')}>
      <Form onSubmit={run}>
        {hasFundPassword && (
          <Field
            label={t('account.oldPassword')}
            name="oldPwd"
            type="password"
            value={oldPwd}
            onValueChange={setOldPwd}
          />
        )}
        <Field
          label={t('auth.newPassword')}
          name="newPwd"
          type="password"
          value={newPwd}
          onValueChange={setNewPwd}
        />
        <SubmitButton busy={busy || info.isLoading} disabled={!newPwd}>
          {t('common.confirm')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
