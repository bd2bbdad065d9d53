import useSWR, { type Middleware, type SWRConfiguration, type SWRResponse } from 'swr'
import type { CallData, CallName } from '@tradegate/shared'
import { i18n } from './i18n'
import { callApi, type ApiError, type CallInput, type CallOptions } from './http'
import { retryNetworkFailures } from './retry'
import { currentToken, session, useSession } from './session'

// The one SWR setup: every domain hook goes through useCall, and the middleware below applies to all.

let sessionEpoch = 0
let lastToken = currentToken()
session.subscribe(() => {
  if (currentToken() === lastToken) return
  lastToken = currentToken()
  sessionEpoch++
})

/**
 * Keys carry the session they were fetched in, so one user's cached data is never shown to the next,
 * and the language, since the upstream answers content (product names, articles) in the request's language.
 */
const sessionScoped: Middleware = (useSWRNext) => (key, fetcher, config) => {
  // re-renders the hook when the session changes, so it reads the new epoch
  useSession()
  const epoch = sessionEpoch
  const scopedKey = Array.isArray(key) ? [...key, epoch, i18n.language] : key
  const scopedFetcher =
    fetcher && Array.isArray(key) ? (scoped: unknown[]) => fetcher(scoped.slice(0, -2)) : fetcher
  return useSWRNext(scopedKey, scopedFetcher as typeof fetcher, config)
}

export const swrConfig: SWRConfiguration = {
  use: [sessionScoped],
  revalidateOnFocus: false,
  dedupingInterval: 2000,
  // SWR calls onErrorRetry only while shouldRetryOnError is on; the handler keeps retries to network failures
  shouldRetryOnError: true,
  onErrorRetry: retryNetworkFailures,
}

/** One call of the call table as SWR state; a null input waits (e.g. until an id is known). */
export function useCall<N extends CallName>(
  name: N,
  input: CallInput<N> | null = {},
  options: CallOptions & { swr?: SWRConfiguration } = {},
): SWRResponse<CallData<N>, ApiError> {
  const { swr, ...callOptions } = options
  return useSWR(
    input === null ? null : [name, input],
    ([callName, callInput]: [N, CallInput<N>]) => callApi(callName, callInput, callOptions),
    swr,
  )
}
