import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'
import { PHONE, createFundedAccount, inLanguage, postApi, screenshotPath } from './stack'
import { setUpSuite, signedInPages } from './suite'
import { readerProblems } from './cut-texts'

// Every language on a phone: the money and account screens at 390 px in all 16 bundles, with nothing
// running off the screen, no text cut off inside its box, and no control whose text a reader cannot
// see whole: a select's chosen text, a link's or a button's words, a word broken mid-way.

const suite = setUpSuite()
const pages = signedInPages(suite)
let token = ''
const SCREENS = [
  '/wallet',
  '/assets',
  '/recharge',
  '/withdraw',
  '/address-book',
  '/transfer',
  '/cashflow',
  '/withdrawDeposit',
  '/secrety',
  '/userauth',
  '/exchange',
  '/flashExchange?from=usdt&to=btc',
  '/finance',
  '/finance/holdings',
  '/subscribe/2',
] as const

interface Overflow {
  what: string
  left: number
  right: number
  scrollWidth?: number
  clientWidth?: number
}

/** Elements whose box leaves the viewport, and boxes that cut their own text (scroll width past their width). */
function findOverflows(page: Page): Promise<Overflow[]> {
  return page.evaluate<Overflow[]>(`(() => {
    const width = document.documentElement.clientWidth
    const found = []
    const name = (element) =>
      element.tagName.toLowerCase() +
      (element.getAttribute('data-testid') ? '[' + element.getAttribute('data-testid') + ']' : '') +
      '.' + element.className + ': ' + (element.textContent || '').trim().slice(0, 40)
    if (document.documentElement.scrollWidth > width + 1)
      found.push({ what: 'page scrolls sideways', left: 0, right: document.documentElement.scrollWidth })
    for (const element of document.querySelectorAll('.app-main *')) {
      const box = element.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      const style = getComputedStyle(element)
      // text for screen readers only is clipped to a pixel on purpose
      if (style.visibility === 'hidden' || style.position === 'fixed' || element.closest('.visually-hidden')) continue
      // a strip that scrolls sideways on purpose (tabs) may hold items past the edge; a form's chips wrap
      const strip = element.closest('.segmented, [data-scrolls]')
      if (strip && strip !== element) continue
      if (box.left < -1 || box.right > width + 1)
        found.push({ what: name(element), left: Math.round(box.left), right: Math.round(box.right) })
      const cuts = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis'
      if (cuts && element.scrollWidth > element.clientWidth + 1 && element.children.length === 0)
        found.push({
          what: 'clipped ' + name(element),
          left: Math.round(box.left),
          right: Math.round(box.right),
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
        })
    }
    return found
  })()`)
}

beforeAll(async () => {
  token = await createFundedAccount(suite.stack)
  // an entry in the address book puts a chip beside the withdraw screen's address-book link
  await postApi(
    suite.stack,
    '/api/user/addressBook/add',
    { network: 'TRC20', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', label: 'Cold wallet' },
    token,
  )
})

describe('every language on a phone', () => {
  it.each([...BUNDLE_LANGUAGES])('%s keeps the money and account screens inside 390 px', async (language) => {
    const page = await pages.open(PHONE, token, inLanguage(language))
    const problems: string[] = []
    for (const path of SCREENS) {
      await pages.go(page, path)
      await page.locator('.app-main .screen').first().waitFor()
      await page.waitForFunction((code) => document.documentElement.lang === code, language)
      // the screen's data has arrived: no loading block is left
      await page.locator('.app-main .loading-block').first().waitFor({ state: 'detached' })
      for (const overflow of await findOverflows(page)) problems.push(`${path}: ${JSON.stringify(overflow)}`)
      for (const cut of await readerProblems(page, language)) problems.push(`${path}: ${cut}`)
      if (['de', 'ar', 'ru', 'pl', 'ja'].includes(language))
        await page.screenshot({
          path: screenshotPath(`phone-${language}${path.replace(/[/?&=]/g, '-')}`),
        })
    }
    expect(problems).toEqual([])
  })
})
