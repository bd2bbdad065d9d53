import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { DESKTOP, PHONE, createFundedUser, inLanguage, screenshotPath, type Viewport } from './stack'
import { readLocale, setUpSuite, signedInPages } from './suite'

// The candle chart's indicators in Chromium against the real gateway and sandbox: picked with the
// toggles, drawn in their colours on the chart's canvases, and remembered after a reload.

const english = readLocale<{ chart: { indicatorNames: Record<string, string> } }>('en')
const suite = setUpSuite()
const pages = signedInPages(suite)
let token = ''

/** The indicator colours of chart-setup.ts as RGB. */
const COLOURS = { ma: [0xf0, 0xb9, 0x0b], ema: [0xc8, 0x6b, 0xfa], boll: [0x3d, 0x9a, 0xf5] } as const

beforeAll(async () => {
  token = (await createFundedUser(suite.stack)).token
})
async function chartPage(viewport: Viewport, language = 'en'): Promise<Page> {
  const page = await pages.open(viewport, token, inLanguage(language))
  await pages.go(page, '/tradeChart?symbol=btcusdt&interval=15min')
  await expect
    .poll(async () => Number(await page.getByTestId('candle-chart').getAttribute('data-candles')))
    .toBeGreaterThan(30)
  return page
}

/** How many pixels of the chart's canvases are drawn in this colour (within antialiasing). */
function pixelsOf(page: Page, rgb: readonly number[]): Promise<number> {
  // a string, since this project's types leave the DOM out (page-globals.d.ts)
  return page.evaluate(`(() => {
    const colour = ${JSON.stringify(rgb)}
    let count = 0
    for (const canvas of document.querySelectorAll('[data-testid=candle-chart] canvas')) {
      const context = canvas.getContext('2d')
      if (!context || canvas.width === 0 || canvas.height === 0) continue
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height)
      for (let index = 0; index < data.length; index += 4) {
        if (colour.every((value, channel) => Math.abs(value - data[index + channel]) < 24)) count++
      }
    }
    return count
  })()`)
}

const toggle = (page: Page, indicator: string) => page.locator(`.indicator-bar [data-indicator=${indicator}]`)

describe.each([PHONE, DESKTOP])('chart indicators at %o', (viewport) => {
  it('draws the indicators picked, in their colours, and remembers the choice', async () => {
    const page = await chartPage(viewport)
    const chart = page.getByTestId('candle-chart')
    // a first visit draws MA and volume
    expect(await chart.getAttribute('data-indicators')).toBe('ma volume')
    await expect.poll(() => pixelsOf(page, COLOURS.ma)).toBeGreaterThan(20)
    expect(await pixelsOf(page, COLOURS.ema)).toBe(0)
    expect(await pixelsOf(page, COLOURS.boll)).toBe(0)
    expect(await toggle(page, 'ema').getAttribute('title')).toBe(english.chart.indicatorNames.ema)

    await toggle(page, 'ema').click()
    await toggle(page, 'boll').click()
    await toggle(page, 'ma').click()
    await expect.poll(() => chart.getAttribute('data-indicators')).toBe('ema boll volume')
    await expect.poll(() => pixelsOf(page, COLOURS.ema)).toBeGreaterThan(20)
    await expect.poll(() => pixelsOf(page, COLOURS.boll)).toBeGreaterThan(20)
    await expect.poll(() => pixelsOf(page, COLOURS.ma)).toBe(0)
    await page.screenshot({ path: screenshotPath(`chart-indicators-${viewport.width}`) })

    // another visit in the same browser draws what was picked
    const again = await pages.another(page)
    await pages.go(again, '/tradeChart?symbol=ethusdt&interval=1hour')
    await expect
      .poll(() => again.getByTestId('candle-chart').getAttribute('data-indicators'))
      .toBe('ema boll volume')
    expect(await toggle(again, 'ema').getAttribute('aria-pressed')).toBe('true')
    expect(await toggle(again, 'ma').getAttribute('aria-pressed')).toBe('false')
  })
})

describe('the indicator toggles in Arabic, German and Japanese', () => {
  it.each(['ar', 'de', 'ja'])('%s fits a phone and names every indicator', async (language) => {
    const page = await chartPage(PHONE, language)
    const names = readLocale<{ chart: { indicatorNames: Record<string, string> } }>(language).chart
      .indicatorNames
    for (const indicator of ['ma', 'ema', 'boll', 'volume']) {
      const button = toggle(page, indicator)
      expect(await button.getAttribute('title')).toBe(names[indicator])
      const box = (await button.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
    }
    await page.screenshot({ path: screenshotPath(`chart-indicators-${language}-phone`) })
  })
})
