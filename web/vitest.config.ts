import { defineConfig } from 'vitest/config'
import { callRoutesPlugin } from './scripts/call-routes'
import { BROWSER_WAIT_MS } from './test/browser/wait'

export default defineConfig({
  test: {
    projects: [
      {
        // the client's http module imports the call table's projection, which this plugin serves
        plugins: [callRoutesPlugin()],
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/unit/browser-globals.ts'],
          // projects with different worker counts run as separate groups: the quick unit tests first
          sequence: { groupOrder: 0 },
          // a socket test's conditions change within milliseconds; the bound only ends a failed wait
          expect: { poll: { timeout: 3000, interval: 10 } },
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          // the build, and the end of any Chromium a file left running (CONTRIBUTING.md)
          globalSetup: ['test/browser/build-once.ts', '../gateway/test/support/process-teardown.ts'],
          // two files at a time, each with its own Chromium, gateway and sandbox: a browser test spends
          // most of its time waiting on pages, so one at a time left a core idle (npm test's web tier
          // 569 s one at a time; the browser files alone 310 s at two, 303 s at four on a loaded box)
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // a bound only ends a test that has already failed; a test that walks ten screens took over
          // a minute on a machine loaded to 20, so the bound is generous
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // an expect.poll without its own bound waited 1 s, which a margin change answered over a
          // loaded machine outlasted; every poll of the browser tests waits the one bound (wait.ts)
          expect: { poll: { timeout: BROWSER_WAIT_MS } },
        },
      },
    ],
  },
})
