import { useEffect, useEffectEvent, useSyncExternalStore } from 'react'
import { LIMITS, type CallBody, type CallData } from '@tradegate/shared'
import { callApi } from '../../../lib/http'
import { currentToken, session } from '../../../lib/session'

// SPEC §4: each coin's deposit address is fetched once and kept, and fetches go out at most once
// per 5 s over all coins: a coin chosen within 5 s of the last fetch waits, and only the last
// choice of such a burst is fetched.

type PayAddress = CallData<'payAddress'>

const addresses = new Map<string, PayAddress>()
const failures = new Map<string, unknown>()
const listeners = new Set<() => void>()
let version = 0
let lastFetchAt = Number.NEGATIVE_INFINITY
let waiting: ReturnType<typeof setTimeout> | null = null

const keyOf = (body: CallBody<'payAddress'>) => `${body.coin}|${body.chain ?? ''}`

function changed(): void {
  version++
  for (const listener of listeners) listener()
}

// a cached address belongs to the account it was fetched for
let cachedFor = currentToken()
session.subscribe(() => {
  if (currentToken() === cachedFor) return
  cachedFor = currentToken()
  addresses.clear()
  failures.clear()
  changed()
})

function fetchAddress(key: string, body: CallBody<'payAddress'>): void {
  lastFetchAt = Date.now()
  failures.delete(key)
  callApi('payAddress', { body }, { quiet: true }).then(
    (address) => {
      addresses.set(key, address)
      changed()
    },
    (error: unknown) => {
      failures.set(key, error)
      changed()
    },
  )
}

function requestAddress(body: CallBody<'payAddress'>): void {
  const key = keyOf(body)
  if (addresses.has(key)) return
  if (waiting !== null) clearTimeout(waiting)
  const wait = lastFetchAt + LIMITS.addressFetchDebounceMs - Date.now()
  if (wait <= 0) {
    waiting = null
    fetchAddress(key, body)
    return
  }
  waiting = setTimeout(() => {
    waiting = null
    if (!addresses.has(key)) fetchAddress(key, body)
  }, wait)
}

/** The deposit address of one coin and chain; `retry` asks again after a failure. */
export function usePayAddress(body: CallBody<'payAddress'> | null): {
  data: PayAddress | undefined
  error: unknown
  retry: () => void
} {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => version,
  )
  const key = body ? keyOf(body) : null
  const request = useEffectEvent(() => {
    if (body) requestAddress(body)
  })
  // the key names the body completely: a new body object with the same key asks nothing again
  useEffect(() => request(), [key])
  return {
    data: key ? addresses.get(key) : undefined,
    error: key ? failures.get(key) : undefined,
    retry: () => {
      if (body) requestAddress(body)
    },
  }
}
