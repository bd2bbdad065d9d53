import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** A question asked in place of the button that raised it, with Confirm and Back; nothing runs before Confirm. */
export function InlineConfirm({
  label,
  question,
  busy,
  onConfirm,
  onBack,
  testId,
}: {
  label: string
  question: ReactNode
  busy: boolean
  onConfirm: () => void
  onBack: () => void
  testId: string
}) {
  const { t } = useTranslation()
  return (
    <span className="confirm-inline" role="group" aria-label={label}>
      <span>{question}</span>
      <button
        type="button"
        className="button button-small button-down"
        disabled={busy}
        onClick={onConfirm}
        data-testid={testId}
      >
        {t('desk.confirm')}
      </button>
      <button type="button" className="button button-small" onClick={onBack}>
        {t('desk.back')}
      </button>
    </span>
  )
}
