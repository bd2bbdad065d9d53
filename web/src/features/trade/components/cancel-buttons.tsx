import { useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { canFocus, focusElement, focusScreenHeading } from '../../../lib/focus'
import { showOutcome, showToast } from '../../../lib/toast'
import { ConfirmDialog } from '../../../components/confirm-dialog'

const CANCEL_SELECTOR = '[data-testid=cancel-order]'

/**
 * Where focus goes when the focused Cancel of an order leaves with its row: the Cancel of the next
 * row that is still there, else of the previous one, else the list's chosen tab ("Open orders (0)"),
 * else the screen's heading. `siblings` are the list's Cancel buttons as they were before the
 * refresh, `place` this one's index among them.
 */
function focusAfterCancel(siblings: readonly HTMLElement[], place: number, list: Element | null): void {
  const after = siblings.slice(place + 1)
  const before = siblings.slice(0, place).reverse()
  const next = [...after, ...before].find(canFocus)
  if (next) {
    next.focus()
    return
  }
  const tab = list?.querySelector<HTMLElement>('[role=tab][aria-selected=true]')
  if (!focusElement(canFocus(tab) ? tab : null)) focusScreenHeading()
}

/**
 * Cancels one open order; the lists refresh whether it went through or not. The outcome is read out
 * by the polite live region while focus stays on the button; when the refresh takes the row (and
 * this button) away while it holds focus, focus moves to the next row's Cancel (see focusAfterCancel)
 * rather than falling to the page body.
 */
export function CancelOrderButton({
  cancel,
  onDone,
}: {
  cancel: () => Promise<unknown>
  onDone: () => void
}) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  /** a cancel was sent from here: the refresh that follows may take this row away */
  const sent = useRef(false)
  useLayoutEffect(() => {
    const element = button.current
    return () => {
      // A layout effect's cleanup runs before React takes the row out of the page, so the button is
      // still there and still focused; focus moves once the refreshed list is in the page.
      if (!sent.current || !element || document.activeElement !== element) return
      const list = element.closest('section')
      const siblings = [...(list ?? document).querySelectorAll<HTMLElement>(CANCEL_SELECTOR)]
      const place = siblings.indexOf(element)
      setTimeout(() => {
        const active = document.activeElement
        // only focus nobody placed since: the removed button's, fallen to the body
        if (active && active !== document.body && active !== element) return
        focusAfterCancel(siblings, place, list)
      }, 0)
    }
  }, [])
  const run = async () => {
    setBusy(true)
    try {
      await cancel()
      showToast(t('trade.orderCancelled'))
    } catch {
      // the HTTP client has shown the message
    } finally {
      sent.current = true
      setBusy(false)
      onDone()
    }
  }
  return (
    // aria-disabled while busy: a disabled button would drop focus to the page body
    <button
      ref={button}
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
