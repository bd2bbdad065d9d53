import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'wouter'
import { Form, SubmitButton } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { changeLoginPassword } from '../api/change-login-password'
import { PasswordChangeFields, usePasswordChange } from '../components/password-change'

export default function ChangePasswordScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const change = usePasswordChange()
  const submit = useSubmit({ checkWhere: 'submit.where.account' })
  const run = () =>
    submit.run(async () => {
      const problem = change.problem()
      if (problem) return showToast(t(problem))
      await changeLoginPassword(change.oldPwd, change.newPwd)
      // the new password has signed this page out, and the sign-in screen says so: a toast would only
      // cover its form
      navigate('/secrety')
    })
  return (
    <Screen title={t('account.loginPassword')}>
      <p className="muted" data-testid="ends-sessions">
        {t('account.newPasswordEndsSessions')}
      </p>
      <Form onSubmit={run}>
        <PasswordChangeFields change={change} oldAutoComplete="current-password" />
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!change.oldPwd || !change.newPwd}>
          {t('common.confirm')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
