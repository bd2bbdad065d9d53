import { readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { RECONNECT } from '@tradegate/shared'
import {
  launchChromium,
  openSignedInPage,
  pageIn,
  screenshotPath,
  startStack,
  type OpenedPage,
  type Stack,
  type StackOptions,
  type Viewport,
} from './stack'
import { BROWSER_WAIT_MS } from './wait'

// What every browser test file sets up: one stack and one Chromium for the whole file.

export { TEST_PASSWORD } from './stack'
export { BROWSER_WAIT_MS } from './wait'

/**
 * The bound on a wait that starts when a gateway the page lost comes back: the page's next try may be
 * a whole back-off window away (RECONNECT.capMs, full jitter), and on a loaded machine that try may
 * time out and leave another window before the one that connects (a CI run saw the page still
 * reconnecting 75 s after the gateway came back); then it has the usual bound.
 */
export const RECONNECT_WAIT_MS = 2 * RECONNECT.capMs + BROWSER_WAIT_MS

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

export interface SignedInPages {
  /** A new page signed in with `token`; `setUp` runs on its context first (e.g. to install a clock). */
  open(viewport: Viewport, token: string, setUp?: (context: BrowserContext) => Promise<void>): Promise<Page>
  /** Another page in the context of `page` (the same storage), its errors expected none like the first's. */
  another(page: Page): Promise<Page>
  /** Opens a route of the app (the part after `#`). */
  go(page: Page, route: string): Promise<void>
}

/**
 * Signed-in pages for a file's tests: each test ends by expecting no uncaught error on the pages it
 * opened, and by closing them. A page left open keeps its socket and its live re-renders, so a file's
 * later tests would share the cores with every earlier test's pages. The pages' locators and
 * navigations wait the one bound of wait.ts.
 */
export function signedInPages(suite: Suite): SignedInPages {
  const opened: OpenedPage[] = []
  afterEach(async ({ task }) => {
    const ended = opened.splice(0)
    try {
      if (task.result?.state === 'fail') await describePages(task.name, ended)
      expect(ended.flatMap((each) => each.errors)).toEqual([])
    } finally {
      for (const context of new Set(ended.map((each) => each.context))) await context.close()
    }
  })
  function keep(each: OpenedPage): Page {
    opened.push(each)
    each.page.setDefaultTimeout(BROWSER_WAIT_MS)
    return each.page
  }
  return {
    async open(viewport, token, setUp) {
      return keep(await openSignedInPage(suite.browser, viewport, token, setUp))
    },
    async another(page) {
      return keep(await pageIn(page.context()))
    },
    async go(page, route) {
      await page.goto(`${suite.stack.url}/#${route}`)
    },
  }
}

/**
 * What a failed test's pages showed when it failed, so a failure seen once on a loaded machine can be
 * read afterwards: each page's address, its visible text, the requests that failed, and a screenshot.
 */
async function describePages(testName: string, ended: readonly OpenedPage[]): Promise<void> {
  const name = testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)
  for (const [index, { page, failedRequests }] of ended.entries()) {
    if (page.isClosed()) continue
    try {
      const shot = screenshotPath(`failed-${name}-${index}`)
      await page.screenshot({ path: shot, timeout: 5000 })
      const text = await page.locator('body').innerText({ timeout: 5000 })
      console.error(
        [
          `[failed] ${testName}: page ${index} at ${page.url()} (screenshot ${shot})`,
          `requests that failed: ${failedRequests.length === 0 ? 'none' : failedRequests.slice(-20).join('; ')}`,
          `text: ${text.replace(/\s+/g, ' ').slice(0, 6000)}`,
        ].join('\n'),
      )
    } catch (error) {
      console.error(`[failed] ${testName}: page ${index} could not be described: ${String(error)}`)
    }
  }
}

/** A message bundle of the app, e.g. to expect the exact text a screen shows. */
export function readLocale<T>(code: string): T {
  return JSON.parse(readFileSync(new URL(`../../src/locales/${code}.json`, import.meta.url), 'utf8')) as T
}
