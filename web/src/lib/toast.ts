import { useSyncExternalStore } from 'react'
import { LIMITS } from '@tradegate/shared'
import { createStore } from './external-store'
import { openerOf } from './focus'

export interface Toast {
  id: number
  /** empty for the loading toast, whose words the toaster writes in the page's language */
  text: string
  /** 'outcome': the result of the user's own action, which takes focus (see showOutcome) */
  kind: 'message' | 'loading' | 'outcome'
  /** for an outcome: where focus goes back to once it is read */
  opener?: readonly HTMLElement[]
}

const toasts = createStore<readonly Toast[]>([])
let nextId = 1
/** outcomes holding focus stay until the user moves on; their time may run out meanwhile */
const held = new Set<number>()
const expired = new Set<number>()

function remove(id: number): void {
  held.delete(id)
  expired.delete(id)
  toasts.set(toasts.get().filter((toast) => toast.id !== id))
}

function expire(id: number): void {
  if (held.has(id)) expired.add(id)
  else remove(id)
}

function add(toast: Toast, durationMs: number): void {
  toasts.set([...toasts.get().filter((shown) => shown.kind === 'loading'), toast])
  setTimeout(() => expire(toast.id), durationMs)
}

/** Shows a message for the standard toast time, read out politely; a newer message replaces an older one. */
export function showToast(text: string, durationMs: number = LIMITS.toastMs): void {
  add({ id: nextId++, text, kind: 'message' }, durationMs)
}

/**
 * Shows the outcome of the user's action and moves focus onto it, so a screen-reader user hears it
 * and a keyboard user is not left on the page body; Escape or Tab goes back to where the action
 * started (a dialog's opener when it started in a dialog that has closed since).
 */
export function showOutcome(text: string, durationMs: number = LIMITS.toastMs): void {
  add({ id: nextId++, text, kind: 'outcome', opener: openerOf(document.activeElement) }, durationMs)
}

/** While an outcome holds focus its time does not end it; once focus leaves, an expired one goes. */
export function holdToast(id: number, holding: boolean): void {
  if (holding) held.add(id)
  else {
    held.delete(id)
    if (expired.has(id)) remove(id)
  }
}

export function dismissToast(id: number): void {
  remove(id)
}

/** Shows the loading toast until the returned function is called. */
export function showLoading(): () => void {
  const id = nextId++
  toasts.set([...toasts.get(), { id, text: '', kind: 'loading' }])
  return () => remove(id)
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(toasts.subscribe, toasts.get, toasts.get)
}

export const toastStore = toasts
