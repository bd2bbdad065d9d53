import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { focusElement, lastFocused, rememberDialogOpener, returnFocus, tabbables } from '../lib/focus'

/**
 * A modal dialog over the screen: a labelled title, focus moved onto the title when it opens and
 * kept inside while it is open (Tab and Shift+Tab wrap), Escape or a tap outside closes it (unless
 * `busy`), and focus goes back to what opened it when it closes, unless something else (an outcome
 * toast) has taken focus meanwhile. Rendered at the end of the body, above everything but toasts.
 */
export function Dialog({
  title,
  onClose,
  busy = false,
  children,
  testId,
  className,
  describedBy,
}: {
  title: ReactNode
  /** id of the text that says what the dialog asks, read after its title */
  describedBy?: string
  onClose: () => void
  busy?: boolean
  children: ReactNode
  testId?: string
  className?: string
}) {
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const [opener] = useState(lastFocused)
  useEffect(() => {
    const shown = panel.current
    if (shown) rememberDialogOpener(shown, opener)
    focusElement(heading.current)
    // focus that escapes (a click on the page behind, a screen reader's own move) comes back in,
    // unless it went to an outcome toast
    const keepInside = (event: FocusEvent) => {
      const target = event.target as Node | null
      if (!shown || !target || shown.contains(target)) return
      if (target instanceof Element && target.closest('.toaster')) return
      focusElement(heading.current)
    }
    document.addEventListener('focusin', keepInside)
    return () => {
      document.removeEventListener('focusin', keepInside)
      const active = document.activeElement
      if (!active || active === document.body || shown?.contains(active)) returnFocus(opener)
    }
  }, [opener])
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      if (!busy) onClose()
      return
    }
    if (event.key !== 'Tab' || !panel.current) return
    const stops = tabbables(panel.current)
    if (stops.length === 0) return
    const first = stops[0]!
    const last = stops[stops.length - 1]!
    const active = document.activeElement
    if (event.shiftKey && (active === first || active === heading.current)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  }
  return createPortal(
    <div
      className="dialog-backdrop"
      onPointerDown={(event) => {
        if (event.target === event.currentTarget && !busy) onClose()
      }}
    >
      <div
        ref={panel}
        className={`dialog card${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        <h2 ref={heading} id={titleId} className="card-title dialog-title" tabIndex={-1}>
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  )
}
