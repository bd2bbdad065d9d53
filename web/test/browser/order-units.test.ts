import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Position } from '@tradegate/shared'
import { DESKTOP, PHONE, callApi, createContractAccount, inLanguage, postApi, screenshotPath } from './stack'
import { readLocale, setUpSuite, signedInPages } from './suite'

// Units on every column of the order tables: the placed and average price name the pair's quote
// coin, the filled amount the coin traded (spot) or shares (futures). On a desktop the table's head
// names the units its rows share, and a row on another pair names its own in the cell; on a phone,
// where each row is a card, each figure's label names the row's units. In English, Arabic (whose
// labels read right to left, the unit on the side read last, though the figures are held left to
// right) and Japanese (whose parentheses and word order are its own: the unit goes in by interpolation).

vi.setConfig({ testTimeout: 240_000 })
const suite = setUpSuite()
const pages = signedInPages(suite)
let token = ''

interface Bundle {
  common: Record<string, string>
  desk: Record<string, string>
  trade: Record<string, string>
}

/** A limit well under the market, inside the band of prices the sandbox takes a limit at. */
function restingPrice(symbol: string): string {
  return suite.stack.sandbox.state.market.price(symbol).times('0.8').toDecimalPlaces(0).toFixed()
}

beforeAll(async () => {
  token = await createContractAccount(suite.stack, '1000')
  const submit = (path: string, body: Record<string, unknown>) => postApi(suite.stack, path, body, token)
  // spot: resting limits on two pairs, and a filled market buy on ETH for the history
  await submit('/api/currency/order/submit', {
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    price: restingPrice('btcusdt'),
    amount: '0.001',
  })
  await submit('/api/currency/order/submit', {
    symbol: 'ethusdt',
    side: 'buy',
    type: 'limit',
    price: restingPrice('ethusdt'),
    amount: '0.2',
  })
  await submit('/api/currency/order/submit', {
    symbol: 'ethusdt',
    side: 'buy',
    type: 'market',
    amount: '0.1',
  })
  // futures: a resting limit, and a position opened and closed at the market for the history
  const contract = { symbol: 'btcusdt', leverage: 10, shares: '10' }
  await submit('/api/contract/order/submit', {
    ...contract,
    direction: 'long',
    type: 'limit',
    price: restingPrice('btcusdt'),
  })
  await submit('/api/contract/order/submit', { ...contract, direction: 'short', type: 'market' })
  const { rows } = await callApi<{ rows: Position[] }>(
    suite.stack,
    '/api/contract/position/list?status=open',
    {},
    token,
  )
  await callApi(suite.stack, `/api/contract/position/stopOrder?id=${rows[0]!.id}`, { method: 'POST' }, token)
})

/** The names of the price and amount columns with their units, as the bundle words them. */
function names(text: Bundle, price: string, amount: string) {
  const put = (key: string, unit: string) =>
    unit
      ? text.common.withUnit!.replace('{{name}}', text.desk[key]!).replace('{{unit}}', unit)
      : text.desk[key]!
  return {
    placed: put('placedPrice', price),
    average: put('averagePrice', price),
    filled: put('filled', amount),
  }
}

/** The table head's three names: placed price, average price, filled. */
async function headNames(table: Locator): Promise<{ placed: string; average: string; filled: string }> {
  return {
    placed: (await table.getByTestId('head-placed-price').textContent()) ?? '',
    average: (await table.getByTestId('head-average-price').textContent()) ?? '',
    filled: (await table.getByTestId('head-filled').textContent()) ?? '',
  }
}

/** The names a phone card shows over a row's three figures (each cell's label, drawn before it). */
async function cardNames(row: Locator): Promise<{ placed: string; average: string; filled: string }> {
  const shown = (cell: Locator) =>
    cell.evaluate((element) => {
      const content = getComputedStyle(element, '::before').content
      return content === 'none' ? '' : (JSON.parse(content) as string)
    })
  return {
    placed: await shown(row.getByTestId('order-price')),
    average: await shown(row.getByTestId('order-average')),
    filled: await shown(row.getByTestId('order-filled')),
  }
}

declare function getComputedStyle(element: unknown, pseudo: string): { content: string; direction: string }

/**
 * Selects a tab of the order lists and sees it selected. The lists sit under the chart, the form and
 * the book, and a click that lands while those are still settling may meet something else: the tab
 * is clicked again until it reads selected (a selected tab's click changes nothing).
 */
async function selectTab(tab: Locator): Promise<void> {
  await expect
    .poll(async () => {
      await tab.click()
      return tab.getAttribute('aria-selected')
    })
    .toBe('true')
}

async function opened(language: string, viewport: typeof PHONE, route: string): Promise<Page> {
  const page = await pages.open(viewport, token, inLanguage(language))
  await pages.go(page, route)
  await page.waitForFunction((code) => document.documentElement.lang === code, language)
  return page
}

describe.each(['en', 'ar', 'ja'])('order table units (%s)', (language) => {
  const text = readLocale<Bundle>(language)
  const shares = text.trade.sharesUnit!

  it('desktop: the heads name the units the rows share, a row on another pair names its own', async () => {
    const page = await opened(language, DESKTOP, '/trade?id=1&componentName=3&symbol=ethusdt')
    const table = page.getByTestId('spot-orders')
    const open = table.locator('tr[data-order-status=open]')
    await expect.poll(() => open.count()).toBe(2)
    // BTC and ETH: the prices share USDT, the amounts do not, so each filled cell names its coin
    expect(await headNames(table)).toEqual({ ...names(text, 'USDT', ''), filled: text.desk.filled })
    expect(await table.locator('tr[data-symbol=btcusdt]').getByTestId('order-filled').textContent()).toBe(
      '0 / 0.001 BTC',
    )
    expect(await table.locator('tr[data-symbol=ethusdt]').getByTestId('order-filled').textContent()).toBe(
      '0 / 0.2 ETH',
    )
    // the book beside it names its units the same way: the language's own brackets, not ASCII ones
    const withUnit = (name: string, unit: string) =>
      text.common.withUnit!.replace('{{name}}', name).replace('{{unit}}', unit)
    expect(await page.locator('.book-head > span').allTextContents()).toEqual([
      withUnit(text.trade.price!, 'USDT'),
      withUnit(text.trade.quantity!, 'ETH'),
      withUnit(text.desk.total!, 'ETH'),
    ])
    await page.screenshot({ path: screenshotPath(`order-units-spot-open-${language}-desktop`) })
    // this pair's only: the head names ETH, and the cells no unit
    await page.getByTestId('hide-other-pairs').check()
    await expect.poll(() => open.count()).toBe(1)
    expect(await headNames(table)).toEqual(names(text, 'USDT', 'ETH'))
    expect(await open.getByTestId('order-filled').textContent()).toBe('0 / 0.2')

    await page.getByTestId('spot-history-tab').click()
    const history = page.getByTestId('spot-history')
    await history.locator('tr[data-order-status=filled]').first().waitFor()
    expect(await headNames(history)).toEqual(names(text, 'USDT', 'ETH'))

    await pages.go(page, '/trade?id=1&componentName=2&symbol=btcusdt')
    await selectTab(page.getByTestId('open-orders-tab'))
    const contracts = page.getByTestId('contract-orders')
    await contracts.locator('tr[data-order-status=open]').first().waitFor()
    expect(await headNames(contracts)).toEqual(names(text, 'USDT', shares))
    expect(await contracts.getByTestId('order-filled').first().textContent()).toBe('0 / 10')
    await page.screenshot({ path: screenshotPath(`order-units-contract-open-${language}-desktop`) })
    await selectTab(page.getByTestId('contract-history-tab'))
    const past = page.getByTestId('contract-history')
    await past.locator('tr[data-order-status=filled]').first().waitFor()
    expect(await headNames(past)).toEqual(names(text, 'USDT', shares))
  })

  it("phone: each card's labels name its row's units, and no unit is said twice", async () => {
    const page = await opened(language, PHONE, '/trade?id=1&componentName=3&symbol=ethusdt')
    const table = page.getByTestId('spot-orders')
    await expect.poll(() => table.locator('tr[data-order-status=open]').count()).toBe(2)
    expect(await table.locator('thead').isVisible()).toBe(false)
    const btc = table.locator('tr[data-symbol=btcusdt]')
    expect(await cardNames(btc)).toEqual(names(text, 'USDT', 'BTC'))
    expect(await cardNames(table.locator('tr[data-symbol=ethusdt]'))).toEqual(names(text, 'USDT', 'ETH'))
    // the label names the coin: the figure does not repeat it
    expect(await btc.getByTestId('order-filled').innerText()).toBe('0 / 0.001')
    // the label in the page's direction, the figure left to right
    const filledCell = btc.getByTestId('order-filled')
    expect(await filledCell.evaluate((cell) => getComputedStyle(cell, '::before').direction)).toBe(
      language === 'ar' ? 'rtl' : 'ltr',
    )
    expect(await filledCell.evaluate((cell) => getComputedStyle(cell, '').direction)).toBe('ltr')
    await table.screenshot({ path: screenshotPath(`order-units-spot-open-${language}-phone`) })

    await page.getByTestId('spot-history-tab').click()
    const history = page.getByTestId('spot-history')
    const filled = history.locator('tr[data-order-status=filled]').first()
    await filled.waitFor()
    expect(await cardNames(filled)).toEqual(names(text, 'USDT', 'ETH'))

    await pages.go(page, '/trade?id=1&componentName=2&symbol=btcusdt')
    await page.getByTestId('open-orders-tab').click()
    const contracts = page.getByTestId('contract-orders')
    const resting = contracts.locator('tr[data-order-status=open]').first()
    await resting.waitFor()
    expect(await cardNames(resting)).toEqual(names(text, 'USDT', shares))
    await contracts.screenshot({ path: screenshotPath(`order-units-contract-open-${language}-phone`) })
    await page.getByTestId('contract-history-tab').click()
    const past = page.getByTestId('contract-history').locator('tr[data-order-status=filled]').first()
    await past.waitFor()
    expect(await cardNames(past)).toEqual(names(text, 'USDT', shares))
  })
})
