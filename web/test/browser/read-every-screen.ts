import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'
import { readerProblems } from './cut-texts'
import { PATHS, routeOf, screenLoaded } from './routes'
import { createFundedAccount, inLanguage, painted, type Viewport } from './stack'
import { setUpSuite, signedInPages } from './suite'

// Every screen of the router, signed in, in each of the 16 languages, read as a person reads it: its
// title whole, no text, placeholder or select's chosen text cut, no control off the screen, no Arabic
// words set left to right. The screens with lists and forms have deeper checks of their own; this
// walk holds the property on the screens nobody wrote one for. A file per size runs it, so the two
// walks share the browser tier's two workers.

const SETTLE_MS = 10_000

/** The title bar's text if it is cut, runs past its bar or takes more than two lines; null otherwise. */
function cutTitle(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(`(() => {
    const element = document.querySelector('.top-bar-title')
    const bar = element && element.closest('.top-bar')
    if (!element || !bar || !element.textContent) return null
    const edge = bar.getBoundingClientRect()
    const box = element.getBoundingClientRect()
    const lines = Math.round(box.height / parseFloat(getComputedStyle(element).lineHeight))
    const whole = element.scrollWidth <= element.clientWidth + 1 && box.top >= edge.top - 1 &&
      box.bottom <= edge.bottom + 1 && lines <= 2
    return whole ? null : element.textContent
  })()`)
}

/**
 * What a reader sees wrong on the screen once it has settled: read again until nothing is wrong, for
 * up to SETTLE_MS, so a screen mid-entrance on a busy machine is not what counts. Shorter than the
 * browser tests' one bound: the red run that found the chart's intervals had a defect on every
 * language's chart, and a walk with several wrong screens must still end within its test's bound.
 */
async function problemsOf(page: Page, language: string): Promise<string[]> {
  const read = async () => {
    const title = await cutTitle(page)
    return [...(title === null ? [] : [`title cut: ${title}`]), ...(await readerProblems(page, language))]
  }
  let found: string[] = []
  await expect
    .poll(async () => (found = await read()), { timeout: SETTLE_MS })
    .toEqual([])
    .catch(() => undefined)
  return found
}

/** The walk's tests for one size: a test per language, each opening every route. */
export function readEveryScreen(size: string, viewport: Viewport): void {
  const suite = setUpSuite()
  const pages = signedInPages(suite)
  let token = ''

  beforeAll(async () => {
    token = await createFundedAccount(suite.stack)
  })

  describe(`every screen read at ${size} (${viewport.width} px)`, () => {
    it.each([...BUNDLE_LANGUAGES])('%s: titles, texts and controls whole', async (language) => {
      const page = await pages.open(viewport, token, inLanguage(language))
      const problems: string[] = []
      for (const path of PATHS) {
        await pages.go(page, routeOf(path))
        await screenLoaded(page)
        await painted(page)
        for (const problem of await problemsOf(page, language)) problems.push(`${path}: ${problem}`)
      }
      expect(problems).toEqual([])
    })
  })
}
