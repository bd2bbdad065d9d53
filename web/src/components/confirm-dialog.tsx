import { useId, type ReactNode } from 'react'
import { useTranslation } from '../lib/i18n'
import { Dialog } from './dialog'

/**
 * A question before an action that cannot be taken back (cancel every order, close every position,
 * delete an address): a dialog with Confirm and Back; nothing runs before Confirm. Confirm keeps
 * focus while it is busy (aria-disabled rather than disabled, which would drop focus to the body).
 */
export function ConfirmDialog({
  label,
  question,
  busy,
  onConfirm,
  onBack,
  testId,
  confirmLabel,
  children,
}: {
  /** the dialog's title, e.g. the action's name */
  label: string
  question: ReactNode
  busy: boolean
  onConfirm: () => void
  onBack: () => void
  testId: string
  /** Confirm's text when the action's own verb says more (Delete) */
  confirmLabel?: string
  /** notices about the action (a refusal, an unconfirmed outcome) shown inside while it is open */
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const questionId = useId()
  return (
    <Dialog title={label} onClose={onBack} busy={busy} className="confirm-dialog" describedBy={questionId}>
      <p id={questionId}>{question}</p>
      {children}
      <div className="button-row">
        <button type="button" className="button" onClick={onBack} disabled={busy}>
          {t('desk.back')}
        </button>
        <button
          type="button"
          className="button button-danger"
          aria-disabled={busy}
          aria-busy={busy}
          onClick={() => {
            if (!busy) onConfirm()
          }}
          data-testid={testId}
        >
          {confirmLabel ?? t('desk.confirm')}
        </button>
      </div>
    </Dialog>
  )
}
