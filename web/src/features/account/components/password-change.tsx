import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Field, NewPasswordFields, passwordProblem } from '../../../components/form'

// The part that changing the login password and setting or changing the fund password share: the old
// password, the new one typed twice, and the check of the new one before anything is sent.

export interface PasswordChange {
  oldPwd: string
  newPwd: string
  confirm: string
  setOldPwd: (value: string) => void
  setNewPwd: (value: string) => void
  setConfirm: (value: string) => void
  /** the message key of what is wrong with the new password (too short, the two differ), or null */
  problem: () => ReturnType<typeof passwordProblem>
  clear: () => void
}

export function usePasswordChange(): PasswordChange {
  const [oldPwd, setOldPwd] = useState('')
  const [newPwd, setNewPwd] = useState('')
  const [confirm, setConfirm] = useState('')
  return {
    oldPwd,
    newPwd,
    confirm,
    setOldPwd,
    setNewPwd,
    setConfirm,
    problem: () => passwordProblem(newPwd, confirm),
    clear: () => {
      setOldPwd('')
      setNewPwd('')
      setConfirm('')
    },
  }
}

/**
 * The old password (unless there is none yet) and the new one with its confirmation. `oldAutoComplete`
 * lets the login password's old field be filled by a password manager; the fund password's is not.
 */
export function PasswordChangeFields({
  change,
  asksOld = true,
  oldAutoComplete,
}: {
  change: PasswordChange
  asksOld?: boolean
  oldAutoComplete?: string
}) {
  const { t } = useTranslation()
  return (
    <>
      {asksOld && (
        <Field
          label={t('account.oldPassword')}
          name="oldPwd"
          type="password"
          autoComplete={oldAutoComplete}
          value={change.oldPwd}
          onValueChange={change.setOldPwd}
        />
      )}
      <NewPasswordFields
        label={t('auth.newPassword')}
        name="newPwd"
        password={change.newPwd}
        confirm={change.confirm}
        onPasswordChange={change.setNewPwd}
        onConfirmChange={change.setConfirm}
      />
    </>
  )
}
