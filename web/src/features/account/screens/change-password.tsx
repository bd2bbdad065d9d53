import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'wouter'
import { Field, Form, NewPasswordFields, SubmitButton, passwordProblem } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { changeLoginPassword } from '../api/change-login-password'

export default function ChangePasswordScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const [oldPwd, setOldPwd] = useState('')
  const [newPwd, setNewPwd] = useState('')
  const [confirm, setConfirm] = useState('')
  const submit = useSubmit({ checkWhere: 'submit.where.account' })
  const run = () =>
    submit.run(async () => {
      const problem = passwordProblem(newPwd, confirm)
      if (problem) return showToast(t(problem))
      await changeLoginPassword(oldPwd, newPwd)
      showToast(t('common.success'))
      navigate('/secrety')
    })
  return (
    <Screen title={t('account.loginPassword')}>
      <Form onSubmit={run}>
        <Field
          label={t('account.oldPassword')}
          name="oldPwd"
          type="password"
          autoComplete="current-password"
          value={oldPwd}
          onValueChange={setOldPwd}
        />
        <NewPasswordFields
          label={t('auth.newPassword')}
          name="newPwd"
          password={newPwd}
          confirm={confirm}
          onPasswordChange={setNewPwd}
          onConfirmChange={setConfirm}
        />
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!oldPwd || !newPwd}>
          {t('common.confirm')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
