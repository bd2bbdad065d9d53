import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'k6/**'],
    // Real sockets, child processes and the quick bench run; generous so a loaded CI box does not flake.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
