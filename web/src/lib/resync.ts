import { mutate } from 'swr'
import { CALL_ROUTES } from 'virtual:call-routes'
import type { CallName } from '@tradegate/shared'

// What the client does after a gap in what it heard: every call of the user's own state that a
// screen shows now (balances, open orders, positions, option positions, second-contract orders…) is
// fetched again, so an event the socket missed is never missed by the user.

/** A tab hidden this long may have been frozen or lost frames: its state is fetched again on return. */
export const BACKGROUND_RESYNC_MS = 5000
/** Gaps closer together than this share their refetches (a book that keeps missing updates asks often). */
export const RESYNC_SPACING_MS = 2000

/** An SWR key of useCall (`[name, input, session epoch]`) for a call that needs the session. */
export function isUserStateKey(key: unknown): boolean {
  if (!Array.isArray(key) || typeof key[0] !== 'string') return false
  return CALL_ROUTES[key[0] as CallName]?.auth === true
}

/** Revalidates every mounted user-state key; keys no screen shows are left alone. */
export function revalidateUserState(): Promise<unknown> {
  return mutate(isUserStateKey)
}

/**
 * Runs `run` at once, then at most once per `spacingMs`: a call inside the window is not dropped
 * but runs once at its end, so the latest gap is always followed by a refetch.
 */
export function spaced(run: () => void, spacingMs: number): () => void {
  let lastRun = -Infinity
  let pending: ReturnType<typeof setTimeout> | null = null
  const fire = () => {
    pending = null
    lastRun = Date.now()
    run()
  }
  return () => {
    if (pending) return
    const wait = lastRun + spacingMs - Date.now()
    if (wait <= 0) fire()
    else pending = setTimeout(fire, wait)
  }
}

/** What this module needs of the live client (named here so the client can import this module). */
export interface SyncedClient {
  onResync(listener: () => void): () => void
  connectNow(): void
  resyncAll(): void
}

/**
 * Wires the app's live client to the browser: refetch the user's state after every gap, try at once
 * when the network or the tab comes back, and treat a long stay in the background as a gap.
 */
export function keepInSync(client: SyncedClient): void {
  client.onResync(spaced(() => void revalidateUserState(), RESYNC_SPACING_MS))
  if (typeof window.addEventListener !== 'function' || typeof document.addEventListener !== 'function') return
  window.addEventListener('online', () => client.connectNow())
  let hiddenAt = 0
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') {
      hiddenAt = Date.now()
      return
    }
    client.connectNow()
    if (hiddenAt && Date.now() - hiddenAt >= BACKGROUND_RESYNC_MS) client.resyncAll()
    hiddenAt = 0
  })
  // a page restored from the back-forward cache was frozen for an unknown time
  window.addEventListener('pageshow', (event) => {
    if ((event as PageTransitionEvent).persisted) client.resyncAll()
  })
}
