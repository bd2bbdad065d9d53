import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { showOutcome } from '../../../lib/toast'
import { ConfirmDialog } from '../../../components/confirm-dialog'

/** Cancels one open order; the lists refresh whether it went through or not. */
export function CancelOrderButton({
  cancel,
  onDone,
}: {
  cancel: () => Promise<unknown>
  onDone: () => void
}) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    try {
      await cancel()
      showOutcome(t('trade.orderCancelled'))
    } catch {
      // the HTTP client has shown the message
    } finally {
      setBusy(false)
      onDone()
    }
  }
  return (
    // aria-disabled while busy: a disabled button would drop focus to the page body
    <button
      type="button"
      className="button button-small"
      aria-disabled={busy || undefined}
      onClick={() => {
        if (!busy) void run()
      }}
      data-testid="cancel-order"
    >
      {t('trade.cancel')}
    </button>
  )
}

/** Cancels every open order in the list, one call each, after the user confirms. */
export function CancelAllButton({
  count,
  cancelOne,
  ids,
  onDone,
}: {
  count: number
  ids: readonly number[]
  cancelOne: (id: number) => Promise<unknown>
  onDone: () => void
}) {
  const { t } = useTranslation()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  if (count === 0) return null
  const run = async () => {
    setBusy(true)
    const results = await Promise.allSettled(ids.map((id) => cancelOne(id)))
    const cancelled = results.filter((result) => result.status === 'fulfilled').length
    showOutcome(t('desk.cancelledCount', { number: cancelled }))
    setBusy(false)
    setConfirming(false)
    onDone()
  }
  return (
    <>
      <button
        type="button"
        className="button button-small"
        aria-haspopup="dialog"
        onClick={() => setConfirming(true)}
        data-testid="cancel-all"
      >
        {t('desk.cancelAll')}
      </button>
      {confirming && (
        <ConfirmDialog
          label={t('desk.cancelAll')}
          question={t('desk.cancelAllQuestion', { number: count })}
          busy={busy}
          onConfirm={() => void run()}
          onBack={() => setConfirming(false)}
          testId="cancel-all-confirm"
        />
      )}
    </>
  )
}
