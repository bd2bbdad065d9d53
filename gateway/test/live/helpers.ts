import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'

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
 * A wait's bound only matters when the test fails: a passing wait ends as soon as its condition
 * holds. So bounds are generous, and a busy machine makes a test slower, never red.
 */
export const WAIT_BOUND_MS = 45_000

/** Polls `probe` until it returns true; fails with `what` after `timeoutMs`. */
export async function waitFor(
  probe: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = WAIT_BOUND_MS,
): Promise<void> {
  // the monotonic clock, so a test that fakes Date still has a bound
  const deadline = performance.now() + timeoutMs
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
