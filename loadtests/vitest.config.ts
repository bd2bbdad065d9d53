import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'k6/**'],
    // ends whatever the files started and did not stop, even from a killed worker (CONTRIBUTING.md)
    globalSetup: ['../gateway/test/support/process-teardown.ts'],
    // Real sockets, child processes and the quick bench run; generous so a loaded CI box does not flake.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
