/**
 * A wait's bound only matters when the test fails: a passing wait ends as soon as its condition
 * holds. So bounds are generous, and a busy machine makes a test slower, never red. Every
 * expect.poll of the gateway and loadtests tiers waits this long (their vitest.config.ts).
 */
export const WAIT_BOUND_MS = 20_000

/** How often a poll looks again: conditions on sockets and timers change within milliseconds. */
export const POLL_INTERVAL_MS = 10
