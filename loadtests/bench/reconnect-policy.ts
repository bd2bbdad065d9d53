/**
 * How a client waits before each reconnect attempt, for the reconnect storm: the web client's fixed
 * interval (every socket waits the same time, so a dropped fleet comes back at one moment) and
 * exponential back-off with full jitter (each wait a random share of a doubling bound, the first
 * at most a second, capped at 30 s), the policy the web client moves to.
 */
import { LIMITS } from '@tradegate/shared'

export interface ReconnectPolicy {
  name: string
  /** Wait before attempt `attempt` (0: the first reconnect after the drop), in ms. */
  delayMs(attempt: number, random: () => number): number
}

export function fixedInterval(ms: number = LIMITS.socketReconnectMs): ReconnectPolicy {
  return { name: `fixed ${ms} ms`, delayMs: () => ms }
}

export const BACKOFF_FIRST_MS = 1000
export const BACKOFF_CAP_MS = 30_000

/** Full jitter: random(0, min(cap, first × 2^attempt)). */
export function fullJitterBackoff(firstMs = BACKOFF_FIRST_MS, capMs = BACKOFF_CAP_MS): ReconnectPolicy {
  return {
    name: `back-off with full jitter (first ≤ ${firstMs} ms, cap ${capMs / 1000} s)`,
    delayMs: (attempt, random) => random() * Math.min(capMs, firstMs * 2 ** attempt),
  }
}
