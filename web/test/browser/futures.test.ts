import type { Page } from 'playwright-core'
import { describe, expect, it, vi } from 'vitest'
import type { ContractOrder, Position } from '@tradegate/shared'
import { PHONE, callApi, createContractAccount, inLanguage, screenshotPath } from './stack'
import { readLocale, setUpSuite, signedInPages } from './suite'
import { readerProblems } from './cut-texts'

// The futures desk as a trader uses it, on a phone, against the real gateway and sandbox: the mark
// price labelled beside index and last with the funding countdown, two fills joining one position,
// leverage by slider, a stop order placed and triggered by the market, and amending a resting order;
// an IOC or FOK order's outcome says what the book filled and what was cancelled.

vi.setConfig({ testTimeout: 240_000 })
const suite = setUpSuite()
const pages = signedInPages(suite)
const SYMBOL = 'btcusdt'

/** "67,250.00 USDT" -> 67250 */
function numberIn(text: string | null): number {
  return Number((text ?? '').replace(/[^\d.-]/g, ''))
}

let token = ''

/** The futures desk of a new account with `usdt` on its contract account (its token in `token`). */
async function futuresDesk(language = 'en', usdt = '1000'): Promise<Page> {
  token = await createContractAccount(suite.stack, usdt)
  const page = await pages.open(PHONE, token, inLanguage(language))
  await pages.go(page, `/trade?id=1&componentName=2&symbol=${SYMBOL}`)
  await page.getByTestId('contract-available').waitFor()
  return page
}

/** The account's futures orders as the sandbox reports them, newest first. */
const ordersOfSandbox = () => callApi<ContractOrder[]>(suite.stack, '/api/contract/order/list', {}, token)

/**
 * Sends a long limit for 100,000 shares at 100× with the time in force given, its limit 0.5 % over
 * the market: the book holds a few hundred shares' worth of coin at each level, so within the
 * limit it holds far less than the order asks, however the market walks meanwhile. Returns the
 * outcome the desk announced.
 */
async function sweepTheBook(page: Page, timeInForce: 'IOC' | 'FOK'): Promise<string> {
  await expect.poll(() => lastPrice(page)).toBeGreaterThan(0)
  await page.locator('.leverage-slider input[type=range]').focus()
  await page.keyboard.press('End')
  await page.locator('#order-contract-type').selectOption('limit')
  await page.locator('#order-time-in-force').selectOption(timeInForce)
  const limit = suite.stack.sandbox.state.market.price(SYMBOL).times('1.005').toDecimalPlaces(0)
  await page.locator('input[name=price]').fill(limit.toFixed())
  await page.locator('#order-shares').fill('100000')
  await page.getByTestId('contract-submit').click()
  return shownToast(page)
}

/** The text of the first message or outcome toast, read in the page the moment it shows: on a loaded machine a toast can go before a second look. */
async function shownToast(page: Page): Promise<string> {
  const shown = await page.waitForFunction(
    () => document.querySelector('[data-testid=toast]:not(.toast-loading)')?.textContent,
  )
  return String(await shown.jsonValue())
}

const lastPrice = async (page: Page) => numberIn(await page.getByTestId('last-price').textContent())

describe('the futures desk on a phone', () => {
  it('labels the mark price beside index and last with the funding countdown, and joins two fills into one position', async () => {
    const page = await futuresDesk()
    const stats = page.getByTestId('futures-stats')
    await stats.waitFor()
    const label = async (testId: string) =>
      page.getByTestId(testId).locator('xpath=preceding-sibling::dt').textContent()
    expect(await label('mark-price')).toBe('Mark price')
    expect(await label('index-price')).toBe('Index price')
    expect(await label('last-price')).toBe('Last price')
    await expect
      .poll(async () => numberIn(await page.getByTestId('mark-price').textContent()))
      .toBeGreaterThan(0)
    expect(await page.getByTestId('funding-rate').textContent()).toMatch(/^-?\d\.\d{4}%$/)
    const countdown = page.getByTestId('funding-countdown')
    const first = await countdown.textContent()
    expect(first).toMatch(/^\d\d:\d\d:\d\d$/)
    // it counts down, second by second
    await expect.poll(() => countdown.textContent()).not.toBe(first)

    for (let fill = 0; fill < 2; fill++) {
      await page.locator('#order-shares').fill('5')
      await page.getByTestId('contract-submit').click()
      await expect.poll(() => page.locator('#order-shares').inputValue()).toBe('')
    }
    const position = page.getByTestId('position')
    await expect.poll(() => position.locator('.figure-value').first().textContent()).toBe('10')
    expect(await position.count()).toBe(1)
    // the card's mark is the header's, labelled the same
    expect(numberIn(await position.getByTestId('position-mark').textContent())).toBeGreaterThan(0)
    await page.screenshot({ path: screenshotPath('futures-merged-phone'), fullPage: true })
  })

  it('sets leverage by a labelled slider up to the pair maximum, and the presets move it', async () => {
    const page = await futuresDesk()
    const slider = page.getByRole('slider', { name: /^Leverage/ })
    expect(await slider.getAttribute('max')).toBe('100')
    await slider.focus()
    await page.keyboard.press('End')
    expect(await page.getByTestId('leverage-value').textContent()).toBe('100×')
    expect(await slider.getAttribute('aria-valuetext')).toBe('100× leverage')
    await page.keyboard.press('ArrowLeft')
    expect(await page.getByTestId('leverage-value').textContent()).toBe('99×')
    await page.locator('[data-leverage="20"]').click()
    expect(await slider.inputValue()).toBe('20')
    await page.locator('#order-shares').fill('10')
    // 100 USDT of position at 20×: 5 USDT of margin
    await expect.poll(() => page.getByTestId('contract-margin').textContent()).toBe('5.0000 USDT')
  })

  it('places a stop-market that waits for its trigger, then opens when the market reaches it', async () => {
    const page = await futuresDesk()
    await expect.poll(() => lastPrice(page)).toBeGreaterThan(0)
    const trigger = Math.round((await lastPrice(page)) * 1.02)
    await page.locator('#order-contract-type').selectOption('stopMarket')
    await page.locator('input[name=trigger]').fill(String(trigger))
    await page.locator('#order-shares').fill('5')
    await page.getByTestId('contract-submit').click()
    await page.getByTestId('open-orders-tab').click()
    const resting = page.getByTestId('contract-orders').locator('tr[data-order-status=open]')
    await expect.poll(() => resting.getByTestId('order-trigger').textContent()).toMatch(/^ ?trigger [\d,.]+$/)
    expect(await page.getByTestId('positions-tab').textContent()).toBe('Positions (0)')

    await suite.stack.control('/sandbox/price', { symbol: SYMBOL, price: String(trigger + 50) })
    await expect.poll(() => page.getByTestId('positions-tab').textContent()).toBe('Positions (1)')
    await expect.poll(() => resting.count()).toBe(0)
    await page.screenshot({ path: screenshotPath('futures-stop-triggered-phone'), fullPage: true })
  })

  it('says an IOC filled in part: how many of its shares, and that the rest was cancelled', async () => {
    const page = await futuresDesk('en', '15000')
    const outcome = await sweepTheBook(page, 'IOC')
    const [sent] = await ordersOfSandbox()
    expect(sent).toMatchObject({ timeInForce: 'IOC', status: 'cancelled', shares: '100000' })
    const filled = Number(sent!.filledShares)
    expect(filled).toBeGreaterThan(0)
    expect(filled).toBeLessThan(100000)
    expect(outcome).toBe(`Filled ${sent!.filledShares} of 100000 shares, rest cancelled (IOC)`)
    await page.screenshot({ path: screenshotPath('futures-ioc-part-filled-phone') })
    // what filled is the position; nothing of the order rests
    await expect.poll(() => page.getByTestId('positions-tab').textContent()).toBe('Positions (1)')
    const position = page.getByTestId('position')
    await expect.poll(() => position.locator('.figure-value').first().textContent()).toBe(sent!.filledShares)
    expect(await page.getByTestId('open-orders-tab').textContent()).toBe('Open orders (0)')
  })

  it('says, in the page language, that a FOK the book could not fill whole was cancelled unfilled', async () => {
    const page = await futuresDesk('ja', '15000')
    const outcome = await sweepTheBook(page, 'FOK')
    const [sent] = await ordersOfSandbox()
    expect(sent).toMatchObject({ timeInForce: 'FOK', status: 'cancelled', filledShares: '0' })
    const japanese = readLocale<{ trade: { futures: Record<string, string> } }>('ja')
    expect(outcome).toBe(japanese.trade.futures.notFilled_FOK)
    expect(readLocale<{ trade: { futures: Record<string, string> } }>('en').trade.futures.notFilled_FOK).toBe(
      'Not filled: cancelled (fill or kill)',
    )
    await page.screenshot({ path: screenshotPath('futures-fok-not-filled-phone') })
    // no position, no resting order, and the margin held for it is back
    await page.getByTestId('contract-history-tab').click()
    const row = page.getByTestId('contract-history').locator('tr[data-order-status=cancelled]')
    expect(await row.getByTestId('order-filled').textContent()).toBe('0 / 100,000')
    await expect
      .poll(async () => numberIn(await page.getByTestId('contract-available').textContent()))
      .toBe(15000)
    const { rows } = await callApi<{ rows: Position[] }>(
      suite.stack,
      '/api/contract/position/list?status=open',
      {},
      token,
    )
    expect(rows).toEqual([])
  })

  it('places a stop-limit that waits for its trigger, then opens at its limit once the market reaches the trigger', async () => {
    const page = await futuresDesk()
    await expect.poll(() => lastPrice(page)).toBeGreaterThan(0)
    const trigger = Math.round((await lastPrice(page)) * 1.02)
    const limit = trigger + 100
    await page.locator('#order-contract-type').selectOption('stopLimit')
    await page.locator('input[name=trigger]').fill(String(trigger))
    await page.locator('input[name=price]').fill(String(limit))
    await page.locator('#order-shares').fill('5')
    await page.getByTestId('contract-submit').click()
    expect(await shownToast(page)).toBe('Order placed')
    await page.getByTestId('open-orders-tab').click()
    const resting = page.getByTestId('contract-orders').locator('tr[data-order-status=open]')
    await expect.poll(() => resting.getByTestId('order-trigger').textContent()).toMatch(/^ ?trigger [\d,.]+$/)
    // the limit it will rest at, then the trigger it waits for
    const placed = (await resting.getByTestId('order-price').textContent()) ?? ''
    expect(numberIn(/^[\d,.]+/.exec(placed)?.[0] ?? '')).toBe(limit)
    expect(await page.getByTestId('positions-tab').textContent()).toBe('Positions (0)')

    // the market set between trigger and limit: the stop triggers there and the long it becomes
    // fills at once, at the price the sandbox fills a resting limit at
    const moved = await suite.stack.control<{ price: string }>('/sandbox/price', {
      symbol: SYMBOL,
      price: String(trigger + 50),
    })
    expect(Number(moved.price)).toBeGreaterThanOrEqual(trigger)
    await expect.poll(() => page.getByTestId('positions-tab').textContent()).toBe('Positions (1)')
    const [sent] = await ordersOfSandbox()
    expect(sent).toMatchObject({ type: 'stopLimit', status: 'filled', filledShares: '5' })
    expect(sent!.triggeredAt).toBeGreaterThan(0)
    expect(Number(sent!.filledPrice)).toBeLessThanOrEqual(limit)
    // the desk shows the entry the sandbox filled at, whatever it was
    await page.getByTestId('positions-tab').click()
    const entry = page.getByTestId('position').locator('.figure-value').nth(1)
    await expect.poll(async () => numberIn(await entry.textContent())).toBe(Number(sent!.filledPrice))
    await page.getByTestId('contract-history-tab').click()
    const filled = page.getByTestId('contract-history').locator('tr[data-order-status=filled]').first()
    expect(numberIn(await filled.getByTestId('order-average').textContent())).toBe(Number(sent!.filledPrice))
    await page.screenshot({ path: screenshotPath('futures-stop-limit-filled-phone'), fullPage: true })
  })

  it('amends a resting limit in place: a new price and size on the same order', async () => {
    const page = await futuresDesk()
    await expect.poll(() => lastPrice(page)).toBeGreaterThan(0)
    const below = Math.round((await lastPrice(page)) * 0.9)
    await page.locator('#order-contract-type').selectOption('limit')
    expect(await page.getByTestId('time-in-force-hint').textContent()).toBe('Good till cancelled (GTC)')
    await page.locator('input[name=price]').fill(String(below))
    await page.locator('#order-shares').fill('5')
    await page.getByTestId('contract-submit').click()
    await page.getByTestId('open-orders-tab').click()
    const row = page.getByTestId('contract-orders').locator('tr[data-order-status=open]')
    await expect.poll(() => row.count()).toBe(1)

    await row.getByTestId('amend-order').click()
    const form = page.getByTestId('amend-form')
    const moved = Math.round(below * 0.95)
    await form.locator('input[name^=price-]').fill(String(moved))
    await form.locator('input[name^=shares-]').fill('8')
    await page.screenshot({ path: screenshotPath('futures-amend-phone'), fullPage: true })
    // the form sits under the table, whole on the screen, whatever the table's scroll
    const box = (await form.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
    await form.getByTestId('amend-save').click()
    await expect.poll(() => form.count()).toBe(0)
    await expect.poll(async () => numberIn(await row.getByTestId('order-price').textContent())).toBe(moved)
    expect(await row.getByTestId('order-filled').textContent()).toBe('0 / 8')
    expect(await row.count()).toBe(1)
  })

  it.each(['en', 'ar', 'de', 'ja'])(
    "%s: every order kind's fields fit 390 px, nothing cut",
    async (language) => {
      const page = await futuresDesk(language)
      // the reference prices in, so the fit is judged with real figures rather than their placeholders
      await page.locator('[data-testid="futures-stats"][aria-busy="false"]').waitFor()
      await page.waitForFunction((code) => document.documentElement.lang === code, language)
      for (const kind of ['limit', 'stopLimit'] as const) {
        await page.locator('#order-contract-type').selectOption(kind)
        const form = page.getByTestId('contract-form')
        const cut = await readerProblems(page, language)
        expect({
          kind,
          width: await page.evaluate<number>('document.documentElement.scrollWidth'),
          cut,
        }).toEqual({
          kind,
          width: PHONE.width,
          cut: [],
        })
        await form.screenshot({ path: screenshotPath(`futures-form-${kind}-${language}-phone`) })
      }
    },
  )
})
