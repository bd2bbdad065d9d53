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
  window.history[replace ? 'replaceState' : 'pushState'](state, '', url.href)
  window.dispatchEvent(new HashChangeEvent('hashchange', { oldURL, newURL: url.href }))
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
