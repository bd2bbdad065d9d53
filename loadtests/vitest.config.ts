import { defineConfig } from 'vitest/config'
import { POLL_INTERVAL_MS, WAIT_BOUND_MS } from '../gateway/test/support/wait-bound'

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**'],
    // ends whatever the files started and did not stop, even from a killed worker (CONTRIBUTING.md)
    globalSetup: ['../gateway/test/support/process-teardown.ts'],
    // Real sockets, child processes and the quick bench run; generous so a loaded CI box does not flake.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // every expect.poll without its own bound waits the tier's one bound (gateway/test/support/wait-bound.ts)
    expect: { poll: { timeout: WAIT_BOUND_MS, interval: POLL_INTERVAL_MS } },
  },
})
