import { readFileSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchChromium, startStack, type Stack, type StackOptions } from './stack'

// What every browser test file sets up: one stack and one Chromium for the whole file.

export { TEST_PASSWORD } from './stack'

export interface Suite {
  readonly stack: Stack
  readonly browser: Browser
}

/** Starts the stack and Chromium before the file's tests and closes both after its own afterAll hooks. */
export function setUpSuite(options: StackOptions = {}): Suite {
  const suite = {} as { stack: Stack; browser: Browser }
  beforeAll(async () => {
    suite.stack = await startStack(options)
    suite.browser = await launchChromium()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.stack?.close()
  })
  return suite
}

/** A message bundle of the app, e.g. to expect the exact text a screen shows. */
export function readLocale<T>(code: string): T {
  return JSON.parse(readFileSync(new URL(`../../src/locales/${code}.json`, import.meta.url), 'utf8')) as T
}
