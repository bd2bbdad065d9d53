import { describe, expect, it } from 'vitest'
import { BACKOFF_CAP_MS, fixedInterval, fullJitterBackoff } from './reconnect-policy'
import { seededRandom } from '@tradegate/shared'

describe('reconnect policies of the storm', () => {
  it('with back-off, spreads the first reconnects over at most a second and caps every wait at 30 s', () => {
    const policy = fullJitterBackoff()
    const random = seededRandom(1).next
    const first = Array.from({ length: 1000 }, () => policy.delayMs(0, random))
    expect(Math.max(...first)).toBeLessThanOrEqual(1000)
    // full jitter: the first waits cover the whole second, not one moment
    expect(Math.min(...first)).toBeLessThan(100)
    expect(Math.max(...first)).toBeGreaterThan(900)
    expect(policy.delayMs(3, () => 0.999)).toBeLessThanOrEqual(8000)
    expect(policy.delayMs(3, () => 0.999)).toBeGreaterThan(4000)
    expect(policy.delayMs(20, () => 1)).toBe(BACKOFF_CAP_MS)
  })

  it('with the fixed interval, sends every socket back at the same moment', () => {
    const policy = fixedInterval(3000)
    expect(new Set([0, 1, 5].map((attempt) => policy.delayMs(attempt, Math.random)))).toEqual(new Set([3000]))
  })
})
