import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { vi } from 'vitest'
import { POLL_INTERVAL_MS, WAIT_BOUND_MS } from '../support/wait-bound'

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

/** A key and channel prefix no other test run shares, so tests can use the real Redis side by side. */
export function uniquePrefix(label: string): string {
  return `test:${label}:${randomBytes(4).toString('hex')}:`
}

/** Deletes every key under `prefix`; never anything else. */
export async function deleteKeys(prefix: string, url = REDIS_URL): Promise<void> {
  // the tests' clusters are throwaway processes that go whole, keys and all
  if (url.startsWith('redis-cluster://')) return
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
      cursor = next
      if (keys.length) await redis.del(...keys)
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
}

/**
 * vitest's vi.waitFor on a condition (expect.poll only runs inside a test; this also serves hooks),
 * named so that a failure says what never happened: polls `probe` until it returns true, for at
 * most `timeoutMs`.
 */
export async function waitFor(
  probe: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = WAIT_BOUND_MS,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await probe())) throw new Error(`timed out waiting for ${what}`)
    },
    { timeout: timeoutMs, interval: POLL_INTERVAL_MS },
  )
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
