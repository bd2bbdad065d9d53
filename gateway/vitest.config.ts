import { defineConfig } from 'vitest/config'
import { POLL_INTERVAL_MS, WAIT_BOUND_MS } from './test/support/wait-bound'

export default defineConfig({
  test: {
    // every file, the Redis Cluster master-loss test included: it was kept out while the gateways saw
    // a promoted replica only when their own traffic happened to reach its shard; they now re-read the
    // slot map on a timer and when a master stops answering (plugins/external/redis.ts)
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'sandbox/**/*.test.ts'],
    // ends whatever the files started and did not stop, even from a killed worker (CONTRIBUTING.md)
    globalSetup: ['test/support/process-teardown.ts'],
    // real servers, Redis and child processes. A bound only ends a test that has already failed (a
    // passing one finishes as soon as its conditions hold), so it is generous: a starved 2-core box
    // makes the suite slower, never red
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // every expect.poll without its own bound waits the tier's one bound (test/support/wait-bound.ts)
    expect: { poll: { timeout: WAIT_BOUND_MS, interval: POLL_INTERVAL_MS } },
    // each file starts servers of its own; two at a time matches the two cores
    fileParallelism: true,
    maxWorkers: 2,
    // Files share a worker's loaded modules instead of importing Fastify, ioredis, undici and the
    // gateway again for each of 57 files: that import was 129 s of the tier's CPU (3.5 s shared), and
    // the tier took 106 s instead of about 220 on a quiet machine. Every file builds its own
    // gateways, Redis prefixes and servers, restores real timers after faking them, and spies only
    // on its own instances, so nothing a file changes outlives it.
    isolate: false,
  },
})
