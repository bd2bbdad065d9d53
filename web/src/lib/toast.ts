import { useSyncExternalStore } from 'react'
import { LIMITS, LOADING_TOAST_TEXT } from '@tradegate/shared'
import { createStore } from './external-store'

export interface Toast {
  id: number
  text: string
  kind: 'message' | 'loading'
}

const toasts = createStore<readonly Toast[]>([])
let nextId = 1

function remove(id: number): void {
  toasts.set(toasts.get().filter((toast) => toast.id !== id))
}

/** Shows a message for the standard toast time; a newer message replaces an older one. */
export function showToast(text: string, durationMs: number = LIMITS.toastMs): void {
  const id = nextId++
  toasts.set([...toasts.get().filter((toast) => toast.kind === 'loading'), { id, text, kind: 'message' }])
  setTimeout(() => remove(id), durationMs)
}

/** Shows the loading toast until the returned function is called. */
export function showLoading(text: string = LOADING_TOAST_TEXT): () => void {
  const id = nextId++
  toasts.set([...toasts.get(), { id, text, kind: 'loading' }])
  return () => remove(id)
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(toasts.subscribe, toasts.get, toasts.get)
}

export const toastStore = toasts
