import useSWR, { type Middleware, type SWRConfiguration, type SWRResponse } from 'swr'
import { MAX_PAGE_SIZE, type CallData, type CallName, type CallQuery } from '@tradegate/shared'
import { useLanguage } from './i18n'
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
 * and the language, since the upstream answers content (notices, rules, help, product names) in the
 * request's language: a switch of language fetches them again rather than showing the old language's.
 */
const sessionScoped: Middleware = (useSWRNext) => (key, fetcher, config) => {
  // re-renders the hook when the session or the language changes, so it reads the new epoch and language
  useSession()
  const language = useLanguage()
  const epoch = sessionEpoch
  const scopedKey = Array.isArray(key) ? [...key, epoch, language] : key
  const scopedFetcher =
    fetcher && Array.isArray(key) ? (scoped: unknown[]) => fetcher(scoped.slice(0, -2)) : fetcher
  return useSWRNext(scopedKey, scopedFetcher as typeof fetcher, config)
}

/**
 * SWR starts a read from the commit that mounts its component (a layout effect), so each request's own
 * main-thread work (checking and building it, handing it to the network) ran inside that commit: eight
 * of them made the futures page's mount one long task. Each request now leaves in a task of its own,
 * a moment after the commit, and SWR still dedupes it from the moment it was asked for.
 */
const requestAfterCommit: Middleware = (useSWRNext) => (key, fetcher, config) => {
  const deferred =
    fetcher &&
    ((...args: unknown[]) =>
      new Promise<void>((resolve) => setTimeout(resolve)).then(() =>
        (fetcher as (...input: unknown[]) => unknown)(...args),
      ))
  return useSWRNext(key, deferred as typeof fetcher, config)
}

export const swrConfig: SWRConfiguration = {
  use: [sessionScoped, requestAfterCommit],
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

/** The list calls that answer one page of rows with the total. */
export type PagedCallName = {
  [N in CallName]: CallData<N> extends { rows: unknown[]; total: number }
    ? CallQuery<N> extends { pageSize?: string } | undefined
      ? N
      : never
    : never
}[CallName]

type AnyPage = { rows: unknown[]; total: number }

/**
 * Up to `maxRows` rows of a paged list as one page, read MAX_PAGE_SIZE rows at a time (the largest page
 * the gateway serves) until the list or `maxRows` ends.
 */
export function useAllPages<N extends PagedCallName>(
  name: N,
  query: Omit<NonNullable<CallQuery<N>>, 'pageNum' | 'pageSize'>,
  maxRows: number,
): SWRResponse<CallData<N>, ApiError> {
  return useSWR([name, query, maxRows], async () => {
    const rows: unknown[] = []
    let total = 0
    for (let pageNum = 1; rows.length < maxRows; pageNum++) {
      const pageQuery = { ...query, pageNum: String(pageNum), pageSize: String(MAX_PAGE_SIZE) }
      const page = (await callApi(name, { query: pageQuery } as unknown as CallInput<N>)) as AnyPage
      rows.push(...page.rows)
      total = page.total
      if (page.rows.length < MAX_PAGE_SIZE || rows.length >= total) break
    }
    return { rows: rows.slice(0, maxRows), total } as CallData<N>
  })
}
