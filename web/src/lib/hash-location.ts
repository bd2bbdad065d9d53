import { useHashLocation } from 'wouter/use-hash-location'

// Routes live in the hash with their query inside it (`/#/trade?id=1`); wouter's own hash hook would
// move the query before the hash, so the path and the query are split here.

function splitHash(hashPath: string): [string, string] {
  const index = hashPath.indexOf('?')
  return index === -1 ? [hashPath, ''] : [hashPath.slice(0, index), hashPath.slice(index + 1)]
}

function navigateHash(
  to: string,
  { replace = false, state = null }: { replace?: boolean; state?: unknown } = {},
) {
  const target = to.startsWith('/') ? to : `/${to}`
  const oldURL = window.location.href
  const url = new URL(oldURL)
  url.hash = target
  const appDepth = appHistoryDepth() + (replace ? 0 : 1)
  window.history[replace ? 'replaceState' : 'pushState']({ appDepth, state }, '', url.href)
  window.dispatchEvent(new HashChangeEvent('hashchange', { oldURL, newURL: url.href }))
}

/** How many of this tab's history entries before the current one are screens of the app. */
function appHistoryDepth(): number {
  const state: unknown = window.history.state
  const depth = state && typeof state === 'object' ? (state as { appDepth?: unknown }).appDepth : undefined
  return typeof depth === 'number' ? depth : 0
}

/**
 * Back to the previous screen of the app, or to `fallback` when this screen was opened directly: a
 * fresh tab's history may start with about:blank, which history.back() would leave the app for.
 */
export function goBackOr(navigate: (to: string) => void, fallback = '/'): void {
  if (appHistoryDepth() > 0) window.history.back()
  else navigate(fallback)
}

/** The route path: the hash without its query. */
export function useHashPath(): [string, typeof navigateHash] {
  const [hashPath] = useHashLocation()
  return [splitHash(hashPath)[0], navigateHash]
}

/** The query inside the hash. */
export function useHashSearch(): string {
  const [hashPath] = useHashLocation()
  return splitHash(hashPath)[1]
}

export function hashHref(to: string): string {
  return `#${to}`
}
