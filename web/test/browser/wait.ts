/**
 * The one bound on a browser test's waits: every expect.poll (vitest.config.ts), every page's
 * locators and navigations (signedInPages), and waitFor. It only ends a wait that has already failed,
 * so it is generous: 15 s bounds failed on this two-core machine loaded to 30-50 by other builds and
 * benchmarks while the screens were right, and 45 s has held there since. A check that passes ends
 * as soon as its condition holds, so the size costs a passing test nothing.
 */
export const BROWSER_WAIT_MS = 45_000
