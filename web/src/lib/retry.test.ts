import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './http'
import { retryNetworkFailures } from './retry'

// SWR hands every failed fetch to onErrorRetry (only while shouldRetryOnError is on) with the attempt
// number counted from 1; these tests drive the handler the way SWR does.

describe('retrying failed fetches', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('retries a network failure three times, 3, 6 and 12 s apart, then gives up', () => {
    const revalidate = vi.fn()
    const network = new ApiError('network', 'Network anomaly', 502, 502)
    for (const [retryCount, delay] of [
      [1, 3000],
      [2, 6000],
      [3, 12_000],
    ] as const) {
      retryNetworkFailures(network, 'key', {}, revalidate, { retryCount })
      vi.advanceTimersByTime(delay - 1)
      expect(revalidate).toHaveBeenCalledTimes(retryCount - 1)
      vi.advanceTimersByTime(1)
      expect(revalidate).toHaveBeenLastCalledWith({ retryCount })
    }
    retryNetworkFailures(network, 'key', {}, revalidate, { retryCount: 4 })
    vi.advanceTimersByTime(60_000)
    expect(revalidate).toHaveBeenCalledTimes(3)
  })

  it('never retries a refused call, a 4xx or an error that is not from the HTTP client', () => {
    const revalidate = vi.fn()
    retryNetworkFailures(new ApiError('refused', 'No'), 'key', {}, revalidate, { retryCount: 1 })
    retryNetworkFailures(new Error('boom'), 'key', {}, revalidate, { retryCount: 1 })
    retryNetworkFailures(new ApiError('network', 'Network anomaly', 400, 400), 'key', {}, revalidate, {
      retryCount: 1,
    })
    vi.advanceTimersByTime(60_000)
    expect(revalidate).not.toHaveBeenCalled()
  })
})
