import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Position } from '@tradegate/shared'
import { PHONE, callApi, createContractAccount, inLanguage, postApi, screenshotPath } from './stack'
import { setUpSuite, signedInPages } from './suite'
import { offScreen, readerProblems } from './cut-texts'

// The rows of the trade screens' order and position lists on a 390 px phone, in English, Arabic
// (right to left), German (long words) and Japanese: every figure, name and button of a resting
// order, a past order and a closed position lies inside the screen, none hidden in a sideways
// scroll, and every button of the rows, and the order form's primary actions (place the order,
// transfer to the futures account), comes into view above the tab bar and its raised Trade button.

vi.setConfig({ testTimeout: 240_000 })
const suite = setUpSuite()
const pages = signedInPages(suite)
let token = ''

/** A limit well under the market, inside the band of prices the sandbox takes a limit at. */
function restingPrice(symbol: string): string {
  return suite.stack.sandbox.state.market.price(symbol).times('0.8').toDecimalPlaces(0).toFixed()
}

beforeAll(async () => {
  token = await createContractAccount(suite.stack, '1000')
  const submit = (path: string, body: Record<string, unknown>) => postApi(suite.stack, path, body, token)
  const contract = { symbol: 'btcusdt', leverage: 10, shares: '10' }
  await submit('/api/contract/order/submit', {
    ...contract,
    direction: 'long',
    type: 'limit',
    price: restingPrice('btcusdt'),
  })
  // a position opened and closed at the market: a row of the position history and of the order history
  await submit('/api/contract/order/submit', { ...contract, direction: 'short', type: 'market' })
  const { rows } = await callApi<{ rows: Position[] }>(
    suite.stack,
    '/api/contract/position/list?status=open',
    {},
    token,
  )
  await callApi(suite.stack, `/api/contract/position/stopOrder?id=${rows[0]!.id}`, { method: 'POST' }, token)
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
})

/**
 * The buttons `selector` finds that something else covers once scrolled into view from below, as
 * a keyboard's focus or a screen reader brings them: the element at each button's centre and at
 * the middle of each of its edges must be the button.
 */
function coveredButtons(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    `((selector) => {
    const found = []
    for (const button of document.querySelectorAll(selector)) {
      if (button.getBoundingClientRect().width === 0) continue
      window.scrollTo(0, document.documentElement.scrollHeight)
      button.scrollIntoView({ block: 'end', inline: 'nearest' })
      const box = button.getBoundingClientRect()
      const middle = { x: box.left + box.width / 2, y: box.top + box.height / 2 }
      // the middle of each edge, just inside it: a rounded corner is not the button's to hit
      const points = [
        [middle.x, middle.y],
        [middle.x, box.top + 2],
        [middle.x, box.bottom - 2],
        [box.left + 2, middle.y],
        [box.right - 2, middle.y],
      ]
      for (const [x, y] of points) {
        const hit = document.elementFromPoint(x, y)
        if (!hit || !button.contains(hit)) {
          found.push('"' + button.textContent.trim() + '" covered at ' + Math.round(x) + ',' + Math.round(y) +
            ' by ' + (hit ? hit.tagName.toLowerCase() + '.' + [...hit.classList].join('.') : 'nothing'))
          break
        }
      }
    }
    return found
  })(${JSON.stringify(selector)})`,
  )
}

/** Opens one of a panel's list tabs and waits for its first row. */
async function showList(page: Page, tab: string, list: string): Promise<void> {
  await page.getByTestId(tab).click()
  await page.getByTestId(list).locator('tbody tr').first().waitFor()
}

/** Every problem of a list's rows, named with the list, for one assertion that shows them all. */
async function rowProblems(page: Page, list: string, language: string): Promise<string[]> {
  const problems = [
    ...(await offScreen(page, list)),
    ...(await coveredButtons(page, `[data-testid="${list}"] tbody button`)),
    ...(await readerProblems(page, language)),
  ]
  await page.getByTestId(list).screenshot({ path: screenshotPath(`desk-rows-${list}-${language}-phone`) })
  return problems.map((problem) => `${list}: ${problem}`)
}

describe('order and position rows on a 390 px phone', () => {
  it.each(['en', 'ar', 'de', 'ja'])(
    "%s: every figure and action of the rows lies within the screen, uncovered, and so do the form's primary actions",
    async (language) => {
      const page = await pages.open(PHONE, token, inLanguage(language))
      const problems: string[] = []

      await pages.go(page, '/trade?id=1&componentName=2&symbol=btcusdt')
      await page.waitForFunction((code) => document.documentElement.lang === code, language)
      await page.getByTestId('contract-available').waitFor()
      await showList(page, 'open-orders-tab', 'contract-orders')
      const resting = page.getByTestId('contract-orders').locator('tr[data-order-status=open]')
      expect(await resting.getByTestId('order-filled').textContent()).toBe('0 / 10')
      problems.push(...(await rowProblems(page, 'contract-orders', language)))
      await showList(page, 'contract-history-tab', 'contract-history')
      problems.push(...(await rowProblems(page, 'contract-history', language)))
      await showList(page, 'position-history-tab', 'position-history')
      expect(await page.getByTestId('history-pnl').first().textContent()).toMatch(/^-?\d+\.\d{4}$/)
      problems.push(...(await rowProblems(page, 'position-history', language)))
      expect(await page.getByTestId('contract-submit').isVisible()).toBe(true)
      problems.push(
        ...(await coveredButtons(page, '[data-testid=contract-submit], [data-testid=open-transfer]')),
      )

      await pages.go(page, '/trade?id=1&componentName=3&symbol=ethusdt')
      await page.getByTestId('spot-available').waitFor()
      await page.getByTestId('spot-orders').locator('tr[data-order-status=open]').waitFor()
      problems.push(...(await rowProblems(page, 'spot-orders', language)))
      await showList(page, 'spot-history-tab', 'spot-history')
      problems.push(...(await rowProblems(page, 'spot-history', language)))
      expect(await page.getByTestId('spot-submit').isVisible()).toBe(true)
      problems.push(...(await coveredButtons(page, '[data-testid=spot-submit]')))

      expect(problems).toEqual([])
    },
  )
})
