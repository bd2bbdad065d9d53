import { ApiError } from './http'

// SWR's onErrorRetry handler, apart from SWR so it can be tested on its own.

const MAX_RETRIES = 3
const FIRST_RETRY_MS = 3000

/** Only a network failure or an unavailable server may heal by itself; a refused call would just be refused again. */
export function retryNetworkFailures(
  error: unknown,
  _key: unknown,
  _config: unknown,
  revalidate: (options: { retryCount: number }) => unknown,
  { retryCount }: { retryCount: number },
): void {
  if (!(error instanceof ApiError) || error.reason !== 'network' || retryCount > MAX_RETRIES) return
  // a 4xx is the request's own fault and would fail again; no status, 5xx, 429 may pass
  if (error.status !== undefined && error.status < 500 && error.status !== 429) return
  setTimeout(() => void revalidate({ retryCount }), FIRST_RETRY_MS * 2 ** (retryCount - 1))
}
