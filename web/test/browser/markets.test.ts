import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'
import { readerProblems } from './cut-texts'
import { PHONE, createFundedAccount, inLanguage, screenshotPath } from './stack'
import { setUpSuite, signedInPages } from './suite'

// The Markets list on a phone: every tab of it fits a 390 px screen in each of the 16 languages,
// volumes are short and in usdt, a coin is found by its name, and "Trade" links open spot.

// generous: several engineers' builds and benchmarks share this machine's two cores
vi.setConfig({ testTimeout: 240_000 })
const suite = setUpSuite()
// each test's pages close with it: an open Markets page keeps re-rendering live tickers
const pages = signedInPages(suite)
let token = ''

beforeAll(async () => {
  token = await createFundedAccount(suite.stack)
})

function phoneIn(language: string): Promise<Page> {
  return pages.open(PHONE, token, inLanguage(language))
}

/** Visible elements whose box crosses either edge of the viewport, and how far the page scrolls sideways. */
async function overflow(page: Page): Promise<{ scroll: number; outside: string[] }> {
  return page.evaluate(`(() => {
    const width = window.innerWidth
    const outside = [...document.body.querySelectorAll('*')]
      .filter((element) => {
        const box = element.getBoundingClientRect()
        if (box.width === 0 || box.height === 0) return false
        return box.right > width + 0.5 || box.left < -0.5
      })
      .map((element) => element.tagName.toLowerCase() + '.' + [...element.classList].join('.') +
        ' "' + (element.textContent || '').trim().slice(0, 30) + '"')
    return { scroll: document.documentElement.scrollWidth - width, outside }
  })()`)
}

/** Waits until the rows show live tickers: a volume other than zero. */
async function liveRows(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page
        .locator('.pair-volume')
        .evaluateAll((cells) => cells.some((cell) => /[1-9]/.test(cell.textContent ?? ''))),
    )
    .toBe(true)
}

/** "Vol 1.23M USDT" as a number, for the English compact notation; the coin it is counted in follows. */
function compactValue(text: string): number {
  const match = /([\d.,]+)\s*([KMBT]?)\s+USDT$/.exec(text)
  if (!match) return Number.NaN
  const scale = { '': 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[match[2] as '' | 'K' | 'M' | 'B' | 'T']
  return Number(match[1]!.replace(/,/g, '')) * scale
}

describe('Markets at 390 px', () => {
  it.each([...BUNDLE_LANGUAGES])(
    '%s: every tab fits the screen, its filter and tools uncut',
    async (language) => {
      const page = await phoneIn(language)
      await pages.go(page, '/store')
      const tabs = page.locator('[data-market-tab]')
      await tabs.first().waitFor()
      const keys = await tabs.evaluateAll((elements) =>
        elements.map((element) => element.getAttribute('data-market-tab')),
      )
      expect(keys.length).toBeGreaterThanOrEqual(4)
      for (const key of keys) {
        await page.locator(`[data-market-tab=${key}]`).click()
        await page.locator('[data-testid=market-table], .no-data').first().waitFor()
        if (key !== 'Optional') await liveRows(page)
        expect({ tab: key, ...(await overflow(page)), cut: await readerProblems(page, language) }).toEqual({
          tab: key,
          scroll: 0,
          outside: [],
          cut: [],
        })
        if (['en', 'ar', 'ja'].includes(language))
          await page.screenshot({ path: screenshotPath(`markets-${key}-${language}-phone`) })
      }
    },
  )
})

describe('Markets list', () => {
  it('asks for every price once a second, not every tick of every pair', async () => {
    const page = await phoneIn('en')
    const sent: string[] = []
    page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => sent.push(String(payload))))
    await pages.go(page, '/store')
    await page.locator('[data-market-tab=BBTrading]').click()
    await liveRows(page)
    const listSubscriptions = sent
      .map(
        (text) => JSON.parse(text) as { operation?: string; type?: string; symbol?: string; rate?: number },
      )
      .filter((frame) => frame.operation === 'subscribe' && frame.type === 'DETAIL' && !frame.symbol)
    expect(listSubscriptions.map((frame) => frame.rate)).toEqual([1000])
  })

  it('shows volumes in usdt, short, and sorts by them', async () => {
    const page = await phoneIn('en')
    await pages.go(page, '/store')
    await page.locator('[data-market-tab=BBTrading]').click()
    await liveRows(page)
    await page.locator('[data-sort=volume]').click()
    const volumes = await page.locator('.pair-volume').allTextContents()
    // compact: no figure wider than a few characters, each naming the coin it is counted in
    expect(
      volumes.every((text) => /^\S+ \d{1,3}(\.\d{1,2})?[KMBT]? USDT$/.test(text)),
      volumes.join(),
    ).toBe(true)
    const values = volumes.map(compactValue)
    expect(values.filter((value, index) => index > 0 && value > values[index - 1]!)).toEqual([])
    // PEPE trades billions of coins for a modest usdt volume: sorted by coin units it came first
    const symbols = await page
      .locator('.pairs-table tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-symbol')))
    expect(symbols.indexOf('pepeusdt')).toBeGreaterThan(0)
  })

  it('finds a coin by its name, and its Trade links open spot', async () => {
    const page = await phoneIn('en')
    await pages.go(page, '/store')
    await page.locator('[data-market-tab=BBTrading]').click()
    await page.getByTestId('market-filter').fill('bitcoin')
    await expect
      .poll(() =>
        page
          .locator('.pairs-table tbody tr')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-symbol'))),
      )
      .toEqual(['btcusdt', 'bchusdt'])

    await pages.go(page, '/search')
    await page.getByTestId('coin-search').fill('Ethereum')
    const results = page.getByTestId('coin-results').locator('[data-symbol]')
    await expect
      .poll(() => results.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-symbol'))))
      .toEqual(['ethusdt', 'etcusdt'])
    await results.first().locator('a').click()
    await page.getByTestId('spot-form').waitFor()
    expect(page.url()).toContain('componentName=3')

    await pages.go(page, '/tradeChart?symbol=solusdt')
    await page.getByTestId('chart-trade').click()
    await page.getByTestId('spot-form').waitFor()
    expect(page.url()).toMatch(/symbol=solusdt.*componentName=3/)
  })
})
