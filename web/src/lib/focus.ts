import { useEffect, type RefObject } from 'react'

// The one way the app moves keyboard focus. A screen-reader or keyboard user must never be left on
// the page body: after an action focus goes to its outcome, after a step changes to the new step's
// heading, after a dialog or picker closes back to what opened it, after a language change to the
// screen's heading.
//
//   useFocusOnMount(ref)            an outcome or summary that replaces a form: focused when shown
//   focusElement(element)           focus anything, e.g. a heading that has no tabindex of its own
//   lastFocused()                   where the user was, even when that control has since been disabled
//   openerOf() / returnFocus(…)     where an action or dialog started, and focus back there (or near)
//   focusScreenHeading()            the current screen's h1

/** The element that last held focus; a button disabled while busy drops focus to the body, this keeps it. */
let lastFocusedElement: HTMLElement | null = null

if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (event) => {
      if (event.target instanceof HTMLElement && event.target !== document.body)
        lastFocusedElement = event.target
    },
    true,
  )
}

/** Where focus is, or was last before it fell to the body. */
export function lastFocused(): HTMLElement | null {
  const active = document.activeElement
  if (active instanceof HTMLElement && active !== document.body) return active
  return lastFocusedElement
}

/** Whether focus can be put on the element now: in the page, shown, not disabled nor inert. */
export function canFocus(element: Element | null | undefined): element is HTMLElement {
  if (!(element instanceof HTMLElement) || !element.isConnected) return false
  if ((element as HTMLButtonElement).disabled || element.closest('[inert]')) return false
  return element.getClientRects().length > 0
}

/** Focuses the element, making a heading or region focusable by script first (never a Tab stop). */
export function focusElement(element: HTMLElement | null | undefined): boolean {
  if (!element?.isConnected) return false
  if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1')
  element.focus({ preventScroll: false })
  return document.activeElement === element
}

/** The heading of the screen on show: the top bar's h1, or the first h1 in the main area. */
export function screenHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.app-main h1, main h1, h1')
}

/** Focuses the current screen's heading; a screen-reader user then hears which screen this is. */
export function focusScreenHeading(): boolean {
  return focusElement(screenHeading())
}

const FIELD_SELECTOR = 'input:not([type=hidden]), select, textarea'

/** What opened each open dialog, so focus can go back there after the dialog is gone. */
const dialogOpeners = new WeakMap<Element, HTMLElement | null>()

export function rememberDialogOpener(dialog: HTMLElement, opener: HTMLElement | null): void {
  dialogOpeners.set(dialog, opener)
}

/**
 * The places focus may go back to after an action started at `start` (focus now, or where it last
 * was): that control first, then, when it sits in a dialog, what opened the dialog, and so on out.
 */
export function openerOf(start: Element | null = document.activeElement): HTMLElement[] {
  const chain: HTMLElement[] = []
  let element: HTMLElement | null | undefined =
    start instanceof HTMLElement && start !== document.body ? start : lastFocusedElement
  while (element && !chain.includes(element)) {
    chain.push(element)
    const dialog: Element | null = element.closest('[role=dialog]')
    element = dialog ? dialogOpeners.get(dialog) : null
  }
  return chain
}

/**
 * Focus back to the first of `openers` that can take it. When none can (the Transfer button
 * disabled once the form cleared), the first field of the form it was in, else the screen's
 * heading: never the page body.
 */
export function returnFocus(openers: HTMLElement | null | undefined | readonly HTMLElement[]): void {
  const list: readonly HTMLElement[] = !openers ? [] : openers instanceof HTMLElement ? [openers] : openers
  const usable = list.find(canFocus)
  if (usable) {
    usable.focus()
    return
  }
  const form = list.find((element) => element.isConnected)?.closest('form')
  const fields: HTMLElement[] = form ? [...form.querySelectorAll<HTMLElement>(FIELD_SELECTOR)] : []
  const field = fields.find(canFocus)
  if (field) field.focus()
  else focusScreenHeading()
}

/** Focuses the referenced element when it appears (the close-all summary that says what closed). */
export function useFocusOnMount(ref: RefObject<HTMLElement | null>, when = true): void {
  useEffect(() => {
    if (when) focusElement(ref.current)
  }, [ref, when])
}

/** The keyboard-focusable elements inside a container, in Tab order. */
export function tabbables(container: HTMLElement): HTMLElement[] {
  const selector =
    'a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])'
  return [...container.querySelectorAll<HTMLElement>(selector)].filter(
    (element) => element.tabIndex >= 0 && canFocus(element),
  )
}
