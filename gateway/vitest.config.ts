import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'sandbox/**/*.test.ts'],
    // real servers, Redis and child processes. A bound only ends a test that has already failed (a
    // passing one finishes as soon as its conditions hold), so it is generous: a starved 2-core box
    // makes the suite slower, never red
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // each file starts servers of its own; two at a time matches the two cores
    fileParallelism: true,
    maxWorkers: 2,
  },
})
