import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'sandbox/**/*.test.ts'],
    // real servers, Redis and child processes: generous so a loaded 2-core box does not flake
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // each file starts servers of its own; two at a time matches the two cores
    fileParallelism: true,
    maxWorkers: 2,
  },
})
