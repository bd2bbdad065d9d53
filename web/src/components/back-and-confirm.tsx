import { useTranslation } from '../lib/i18n'

/**
 * The last step of a money action: Back to edit, or the action's own Confirm, which spins while it
 * is sent. Confirm is aria-disabled rather than disabled, so it keeps focus while busy or while
 * `canConfirm` waits (a quote being renewed) instead of dropping it to the page body.
 */
export function BackAndConfirm({
  confirmLabel,
  busy,
  canConfirm = true,
  onBack,
  onConfirm,
  testId,
}: {
  confirmLabel: string
  busy: boolean
  canConfirm?: boolean
  onBack: () => void
  onConfirm: () => void
  testId: string
}) {
  const { t } = useTranslation()
  return (
    <div className="button-row">
      <button type="button" className="button" onClick={onBack} disabled={busy}>
        {t('withdrawal.back')}
      </button>
      <button
        type="button"
        className="button button-primary"
        onClick={() => {
          if (!busy && canConfirm) onConfirm()
        }}
        aria-disabled={busy || !canConfirm}
        aria-busy={busy}
        data-testid={testId}
      >
        {busy ? <span className="spinner spinner-small" /> : confirmLabel}
      </button>
    </div>
  )
}
