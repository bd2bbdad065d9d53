import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { CodeField, Form, SubmitButton } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { sendFundPasswordCode } from '../api/send-fund-password-code'
import { changeFundPassword, setFundPassword } from '../api/fund-password'
import { useAccountInfo } from '../../../lib/api/get-info'
import { PasswordChangeFields, usePasswordChange } from '../components/password-change'

/**
 * Sets the fund password the first time, typed twice, and changes it afterwards; both send a code sent
 * to the bound e-mail or phone when the verification settings ask for one (the gateway refuses either
 * without it).
 */
export default function FundPasswordScreen() {
  const { t } = useTranslation()
  const info = useAccountInfo()
  const settings = useSettings()
  const user = info.data?.user
  const hasFundPassword = user?.hasFundPassword ?? false
  const codeTarget = user?.email ? { email: user.email } : user?.phone ? { phone: user.phone } : null
  const asksCode = settings.VERIFY_CODE_SETTING.withdrawPassword && codeTarget !== null
  const change = usePasswordChange()
  const [code, setCode] = useState('')
  const submit = useSubmit({ checkWhere: 'submit.where.account' })
  const run = () =>
    submit.run(async () => {
      const problem = change.problem()
      if (problem) return showToast(t(problem))
      const sentCode = asksCode ? code.trim() : undefined
      if (hasFundPassword) {
        // a new fund password signs this page out, and the sign-in screen says so: a toast would only
        // cover its form
        await changeFundPassword(change.oldPwd, change.newPwd, sentCode)
        return
      }
      await setFundPassword(change.newPwd, sentCode)
      showToast(t('common.success'))
      change.clear()
      setCode('')
      void info.mutate()
    })
  return (
    <Screen title={t('account.fundPassword')}>
      <p className="muted">{t('money.fundPassword.why')}</p>
      {hasFundPassword && (
        <p className="muted" data-testid="ends-sessions">
          {t('account.newPasswordEndsSessions')}
        </p>
      )}
      <Form onSubmit={run}>
        <PasswordChangeFields change={change} asksOld={hasFundPassword} />
        {asksCode && codeTarget && (
          <>
            <p className="muted" data-testid="code-target">
              {t('money.fundPassword.codeTo', { target: codeTarget.email ?? codeTarget.phone })}
            </p>
            <CodeField value={code} onValueChange={setCode} onSend={() => sendFundPasswordCode(codeTarget)} />
          </>
        )}
        <SubmitNotice submit={submit} />
        <SubmitButton
          busy={submit.busy || info.isLoading}
          disabled={!change.newPwd || !change.confirm || (asksCode && !code)}
        >
          {t('common.confirm')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
