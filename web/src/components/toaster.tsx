import { useEffect, useRef } from 'react'
import { useTranslation } from '../lib/i18n'
import { focusElement, returnFocus } from '../lib/focus'
import { dismissToast, holdToast, useToasts, type Toast } from '../lib/toast'

/**
 * Messages are read out once by one polite live region that is always in the page (a region
 * added with its text is often not read); the toasts inside carry no role of their own, which
 * some screen readers would read a second time. An outcome is not in the region: it takes focus,
 * which reads it, and sits in a labelled region of its own (content outside every landmark is lost
 * to a screen reader's landmark navigation).
 */
export function Toaster() {
  const { t } = useTranslation()
  const toasts = useToasts()
  const outcomes = toasts.filter((toast) => toast.kind === 'outcome')
  return (
    <div className="toaster">
      <div className="toaster-live" aria-live="polite" data-testid="live-toasts">
        {toasts
          .filter((toast) => toast.kind !== 'outcome')
          .map((toast) => (
            <div key={toast.id} className={`toast toast-${toast.kind}`} data-testid="toast">
              {toast.kind === 'loading' && <span className="spinner spinner-small" />}
              {toast.kind === 'loading' ? t('common.loading') : toast.text}
            </div>
          ))}
      </div>
      {outcomes.length > 0 && (
        <section aria-label={t('common.outcome')}>
          {outcomes.map((toast) => (
            <OutcomeToast key={toast.id} toast={toast} />
          ))}
        </section>
      )}
    </div>
  )
}

/** Focused when shown; Escape, Enter or Tab goes back to where the action started. */
function OutcomeToast({ toast }: { toast: Toast }) {
  const element = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const shown = element.current
    focusElement(shown)
    return () => {
      // A click elsewhere blurs the outcome before it focuses its target, and an expired outcome goes
      // on that blur: returning focus then would pull it (and the page's scroll) away from what was
      // clicked, so the click lands elsewhere. Focus goes back only if it has landed nowhere.
      setTimeout(() => {
        const active = document.activeElement
        if (!active || active === document.body || active === shown) returnFocus(toast.opener)
      }, 0)
    }
  }, [toast])
  const leave = () => {
    dismissToast(toast.id)
    returnFocus(toast.opener)
  }
  return (
    <div
      ref={element}
      className="toast toast-outcome"
      tabIndex={-1}
      data-testid="toast"
      data-outcome=""
      onFocus={() => holdToast(toast.id, true)}
      onBlur={() => holdToast(toast.id, false)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' || event.key === 'Enter' || event.key === 'Tab') {
          event.preventDefault()
          leave()
        }
      }}
    >
      {toast.text}
    </div>
  )
}
