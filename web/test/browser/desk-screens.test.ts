import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import {
  DESKTOP,
  PHONE,
  inLanguage,
  openPage,
  registerThroughUi,
  screenshotPath,
  uniqueEmail,
  type Viewport,
} from './stack'
import { TEST_PASSWORD, setUpSuite, signedInPages } from './suite'
import { readerProblems } from './cut-texts'

// The trading desk's screens in English, Arabic (right to left) and Japanese at both sizes: each is
// photographed, and what a trader would notice at a glance is asserted: nothing wider than the screen,
// no raw translation key, the trade tab strip whole at 390 px, the position badge on one line.

// generous: several engineers' builds and benchmarks share this machine's two cores
vi.setConfig({ testTimeout: 240_000 })
const suite = setUpSuite()
const pages = signedInPages(suite)
let token = ''

const LANGUAGES = ['en', 'ar', 'ja'] as const

function pageIn(language: string, viewport: Viewport): Promise<Page> {
  return pages.open(viewport, token, inLanguage(language))
}

/** What overflows the viewport sideways, and any dotted key shown instead of a text. */
async function problems(page: Page): Promise<{ overflow: number; rawKeys: string[] }> {
  return page.evaluate(`(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth
    const text = document.body.innerText
    const rawKeys = text.match(/\\b(?:desk|trade|market|chart)\\.[a-zA-Z_.]+\\b/g) ?? []
    return { overflow, rawKeys }
  })()`)
}

/**
 * Which end of the percent slider's track is drawn in the accent colour, read from the pixels on a
 * line through the track at 10 % and 90 % of its width.
 */
async function sliderFill(page: Page): Promise<{ left: boolean; right: boolean }> {
  const slider = page.locator('.percent-slider input[type=range]').first()
  const png = (await slider.screenshot()).toString('base64')
  return page.evaluate(
    `(async () => {
      const bytes = Uint8Array.from(atob('${png}'), (char) => char.charCodeAt(0))
      const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
      const canvas = new OffscreenCanvas(image.width, image.height)
      const context = canvas.getContext('2d')
      context.drawImage(image, 0, 0)
      const probe = document.createElement('span')
      probe.style.color = 'var(--accent)'
      document.body.append(probe)
      const accent = getComputedStyle(probe).color.match(/\\d+/g).map(Number)
      probe.remove()
      const y = Math.floor(image.height / 2)
      const isAccent = (x) => {
        const pixel = context.getImageData(Math.floor(x), y, 1, 1).data
        return accent.slice(0, 3).every((value, index) => Math.abs(value - pixel[index]) < 40)
      }
      return { left: isAccent(image.width * 0.1), right: isAccent(image.width * 0.9) }
    })()`,
  )
}

beforeAll(async () => {
  const email = uniqueEmail()
  const { page, context } = await openPage(suite.browser, PHONE)
  await registerThroughUi(page, suite.stack, email, TEST_PASSWORD)
  token = String(await page.evaluate("localStorage.getItem('_token')"))
  await suite.stack.control('/sandbox/deposit', { username: email, coin: 'usdt', amount: '100000' })
  // a position to show on the futures screen
  await page.evaluate(`(async () => {
    const headers = { satoken: localStorage.getItem('_token'), 'content-type': 'application/json' }
    await fetch('/api/asset/transferFunds', { method: 'POST', headers,
      body: JSON.stringify({ coin: 'usdt', from: 'platform', to: 'contract', amount: '1000' }) })
    await fetch('/api/contract/order/submit', { method: 'POST', headers,
      body: JSON.stringify({ symbol: 'btcusdt', direction: 'long', type: 'market', leverage: 10, shares: '10' }) })
  })()`)
  await context.close()
})

describe('the trade screen on a 390 × 844 phone', () => {
  it.each(['de', 'ar', 'ja', 'en'])(
    '%s: spot and contract tabs fit, no text cut, no raw key',
    async (language) => {
      const page = await pageIn(language, PHONE)
      for (const [tab, componentName, symbol] of [
        ['spot', 3, 'ethusdt'],
        ['contract', 2, 'btcusdt'],
      ] as const) {
        await pages.go(page, `/trade?id=1&componentName=${componentName}&symbol=${symbol}`)
        await page.getByTestId('book-bid').first().waitFor()
        await page.waitForFunction((code) => document.documentElement.lang === code, language)
        if (tab === 'contract') await page.getByTestId('position').first().waitFor()
        else await page.getByTestId('spot-available').waitFor()
        const width = await page.evaluate<number>('document.documentElement.scrollWidth')
        expect({ tab, width }).toEqual({ tab, width: PHONE.width })
        expect({ tab, ...(await problems(page)), cut: await readerProblems(page, language) }).toEqual({
          tab,
          overflow: 0,
          rawKeys: [],
          cut: [],
        })
        await page.screenshot({ path: screenshotPath(`trade-fit-${tab}-${language}-phone`), fullPage: true })
      }
    },
  )
})

describe.each(LANGUAGES)('desk screens in %s', (language) => {
  it.each([PHONE, DESKTOP])('at %o', async (viewport) => {
    const size = viewport === PHONE ? 'phone' : 'desktop'
    const page = await pageIn(language, viewport)
    const shot = (name: string) =>
      page.screenshot({ path: screenshotPath(`desk-${name}-${language}-${size}`) })

    await pages.go(page, '/trade?id=1&componentName=3&symbol=ethusdt')
    await page.getByTestId('book-bid').first().waitFor()
    await page.getByTestId('spot-available').waitFor()
    if (viewport === PHONE) {
      // every tab of the strip fits: none is cut off at the edge
      const cut = await page.evaluate(`[...document.querySelectorAll('.trade-tabs [role=tab]')]
        .filter((tab) => { const box = tab.getBoundingClientRect(); return box.left < 0 || box.right > window.innerWidth })
        .length`)
      expect(cut).toBe(0)
    }
    expect(await problems(page)).toEqual({ overflow: 0, rawKeys: [] })
    await shot('spot')
    // a quarter of the balance fills a quarter of the track from where the text starts: the left
    // end in English and Japanese, the right end in Arabic
    await page.getByTestId('spot-form').locator('[data-percent="25"]').click()
    const rtl = language === 'ar'
    await expect.poll(() => sliderFill(page)).toEqual({ left: !rtl, right: rtl })

    await page.getByTestId('pair-picker').click()
    await page.getByTestId('pair-search').fill('sol')
    await page.getByTestId('pair-list').locator('[data-symbol=solusdt]').waitFor()
    await shot('pair-picker')
    await page.keyboard.press('Escape')

    await pages.go(page, '/trade?id=1&componentName=2&symbol=btcusdt')
    const position = page.getByTestId('position').first()
    await position.waitFor()
    // "Long 10×" on one line
    const badge = await position.locator('.position-head .tag').boundingBox()
    expect(badge?.height).toBeLessThan(30)
    expect(await problems(page)).toEqual({ overflow: 0, rawKeys: [] })
    await shot('futures')

    await pages.go(page, '/')
    await page.getByTestId('feed-status').waitFor()
    await shot('home')
    await pages.go(page, '/tradeChart?symbol=btcusdt')
    await page.getByTestId('candle-chart').waitFor()
    await expect
      .poll(async () => Number(await page.getByTestId('candle-chart').getAttribute('data-candles')))
      .toBeGreaterThan(0)
    expect(await problems(page)).toEqual({ overflow: 0, rawKeys: [] })
    await shot('chart')
  })
})
