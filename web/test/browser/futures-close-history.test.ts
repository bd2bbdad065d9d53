import type { Locator, Page } from 'playwright-core'
import { describe, expect, it, vi } from 'vitest'
import { toDecimal, type ContractOrder } from '@tradegate/shared'
import {
  DESKTOP,
  PHONE,
  callApi,
  createContractAccount,
  inLanguage,
  postApi,
  screenshotPath,
  type Viewport,
} from './stack'
import { heardPolitely } from './heard'
import { readLocale, setUpSuite, signedInPages } from './suite'
import { offScreen, readerProblems } from './cut-texts'

// A position closed by its stop-loss leaves a row in the futures order history that says so, as a
// market close does: a long's stop-loss triggered by a price move (set through the sandbox's control
// endpoint) shows on a page already open, labelled in the page's language, coloured as the sell it
// is, with figures that add up by hand by the display rule: realized PnL = (exit − entry) × coins −
// fee, coins being the total over the entry. At 390 and 1440 px in English and Japanese; the Arabic
// phone card stays within the screen. A close whose answer is lost is looked up by the position's
// close rows and their reason: the user's close went through, or a stop-loss closed it first.

vi.setConfig({ testTimeout: 240_000 })
const suite = setUpSuite()
const pages = signedInPages(suite)
const SYMBOL = 'btcusdt'

type Labels = { positions: { closeReason: Record<string, string> } }
type Notices = { notices: { kind: { stopLoss: string } } }
type SubmitTexts = { submit: { wentThrough: string; closedFirst: Record<string, string> } }

/** "-1,234.5678 USDT" -> its decimal, as written */
function decimalIn(text: string | null) {
  return toDecimal((text ?? '').replace(/[^\d.-]/g, ''))
}

/** The market now, and a price `factor` of it at the pair's tick places, rounded down. */
function priceAt(factor: string): string {
  const market = suite.stack.sandbox.state.market
  return market
    .price(SYMBOL)
    .times(factor)
    .toDecimalPlaces(market.instrument(SYMBOL).pricePlaces, 1)
    .toFixed()
}

/** A new account's long of 10 shares at 10× with a stop-loss 1 % under the market; returns its token and stop. */
async function longWithStopLoss(): Promise<{ token: string; stopLoss: string }> {
  const token = await createContractAccount(suite.stack, '1000')
  const stopLoss = priceAt('0.99')
  await postApi(
    suite.stack,
    '/api/contract/order/submit',
    { symbol: SYMBOL, direction: 'long', type: 'market', leverage: 10, shares: '10', stopLoss },
    token,
  )
  return { token, stopLoss }
}

/** The market moved 1.5 % under the stop: the sandbox triggers it on this price at once. */
function moveThroughStop(): Promise<unknown> {
  return suite.stack.control('/sandbox/price', { symbol: SYMBOL, price: priceAt('0.985') })
}

/** The futures desk in `language` at `viewport`, its order history open on the opening order's row. */
async function orderHistory(token: string, language: string, viewport: Viewport): Promise<Page> {
  const page = await pages.open(viewport, token, inLanguage(language))
  await pages.go(page, `/trade?id=1&componentName=2&symbol=${SYMBOL}`)
  await page.waitForFunction((code) => document.documentElement.lang === code, language)
  await page.getByTestId('contract-available').waitFor()
  await page.getByTestId('contract-history-tab').click()
  await page.getByTestId('contract-history').locator('tr[data-order-status=filled]').first().waitFor()
  return page
}

/** The computed text colour of the stop-loss row's element `testId`. */
function colourAt(page: Page, testId: string): Promise<string> {
  const selector = `tr[data-close-reason=stopLoss] [data-testid=${testId}]`
  return page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).color`)
}

/** A past order's total and fee: columns on a desktop, the line under the row on a phone. */
async function totalAndFee(row: Locator, viewport: Viewport): Promise<[string | null, string | null]> {
  if (viewport === DESKTOP)
    return [
      await row.getByTestId('order-total').textContent(),
      await row.getByTestId('order-fee').textContent(),
    ]
  const figures = row.locator('xpath=following-sibling::tr[1]').locator('.num')
  // the line reads: time · Total … · Fee …, its figures the total and the fee
  return [await figures.nth(0).textContent(), await figures.nth(1).textContent()]
}

describe('a stop-loss close in the futures order history', () => {
  it.each(['en', 'ja'])(
    '%s: a stop-loss a price move triggers is announced, and is a labelled sell row whose figures add up, at 390 and 1440 px',
    async (language) => {
      const { token } = await longWithStopLoss()
      const viewports = [PHONE, DESKTOP]
      const opened = [
        await orderHistory(token, language, PHONE),
        await orderHistory(token, language, DESKTOP),
      ]
      const heard = await Promise.all(opened.map((page) => heardPolitely(page)))
      await moveThroughStop()
      // each open page announces it, in its language: a notice naming the stop-loss that fired
      const announced = readLocale<Notices>(language).notices.kind.stopLoss.split('{{')[0]!
      for (const heardOnPage of heard) {
        await expect
          .poll(async () => (await heardOnPage()).filter((text) => text.startsWith(announced)))
          .toHaveLength(1)
      }
      const sandboxOrders = await callApi<ContractOrder[]>(suite.stack, '/api/contract/order/list', {}, token)
      const close = sandboxOrders.find((order) => order.closeReason === 'stopLoss')!
      expect(close).toMatchObject({ status: 'filled', filledShares: '10', type: 'stopMarket' })
      const label = readLocale<Labels>(language).positions.closeReason.stopLoss
      expect(label).toBe(language === 'en' ? 'Stop loss' : '損切り')

      for (const [index, page] of opened.entries()) {
        const viewport = viewports[index]!
        const where = `${language} at ${viewport.width} px`
        const history = page.getByTestId('contract-history')
        // the page was open when the stop triggered: the row comes with the position's event
        const row = history.locator('tr[data-close-reason=stopLoss]')
        await expect.poll(() => row.count(), { message: where }).toBe(1)
        expect(await row.getByTestId('close-reason').textContent(), where).toBe(label)
        // a close of a long sells: the row's side and its label read as a sell
        const side = row.locator('td:has([data-testid=order-direction])')
        expect(await side.getAttribute('class'), where).toMatch(/\bdown\b/)
        expect(await row.getByTestId('close-reason').getAttribute('class'), where).toMatch(/\btag-down\b/)
        expect(await colourAt(page, 'close-reason'), where).toBe(await colourAt(page, 'order-direction'))

        const opening = history.locator('tr[data-order-status=filled]:not([data-close-reason])')
        const entry = decimalIn(await opening.getByTestId('order-average').textContent())
        const exit = decimalIn(await row.getByTestId('order-average').textContent())
        expect(exit.toFixed(), where).toBe(close.filledPrice)
        expect(await row.getByTestId('order-filled').textContent(), where).toBe('10 / 10')
        const [totalText, feeText] = await totalAndFee(row, viewport)
        const total = decimalIn(totalText)
        const fee = decimalIn(feeText)
        const shown = decimalIn(await row.getByTestId('order-pnl').textContent())
        // (exit − entry) × coins × direction (a long: +1) − fee, from the figures on the screen
        const byHand = exit.minus(entry).times(total.dividedBy(entry)).minus(fee)
        expect(shown.isNegative(), where).toBe(true)
        // rounded to 4 places from the sandbox's PnL, which keeps 8 places, cut
        expect(shown.minus(byHand).abs().toNumber(), where).toBeLessThanOrEqual(0.00005 + 0.00000001)
        expect(await row.getByTestId('order-pnl').getAttribute('class'), where).toMatch(/\bdown\b/)
        await row.getByTestId('order-pnl').scrollIntoViewIfNeeded()
        await page.screenshot({
          path: screenshotPath(
            `futures-close-history-${language}-${viewport === PHONE ? 'phone' : 'desktop'}`,
          ),
          fullPage: true,
        })
      }
    },
  )

  it.each(['de', 'ar'])(
    '%s at 1440 px: every column of a history holding a stop-loss row is in view, with no sideways scroll',
    async (language) => {
      const { token } = await longWithStopLoss()
      await moveThroughStop()
      const page = await orderHistory(token, language, DESKTOP)
      const history = page.getByTestId('contract-history')
      // the widest row: a close with its reason's tag and a trigger under its price
      await expect.poll(() => history.locator('tr[data-close-reason=stopLoss]').count()).toBe(1)
      const scroller = `document.querySelector('[data-testid=contract-history]').closest('.table-scroll')`
      const [scrollWidth, clientWidth] = await page.evaluate<[number, number]>(
        `[${scroller}.scrollWidth, ${scroller}.clientWidth]`,
      )
      await history.screenshot({ path: screenshotPath(`futures-close-history-${language}-desktop-columns`) })
      expect(
        scrollWidth,
        `${language}: the table is ${scrollWidth} px wide in ${clientWidth}`,
      ).toBeLessThanOrEqual(clientWidth)
      expect(await readerProblems(page, language)).toEqual([])
    },
  )

  it("ar: the stop-loss row's card lies within a 390 px screen, nothing cut", async () => {
    const { token } = await longWithStopLoss()
    await moveThroughStop()
    const page = await orderHistory(token, 'ar', PHONE)
    const row = page.getByTestId('contract-history').locator('tr[data-close-reason=stopLoss]')
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.getByTestId('close-reason').textContent()).toBe(
      readLocale<Labels>('ar').positions.closeReason.stopLoss,
    )
    const problems = [...(await offScreen(page, 'contract-history')), ...(await readerProblems(page, 'ar'))]
    await page
      .getByTestId('contract-history')
      .screenshot({ path: screenshotPath('futures-close-history-ar-phone') })
    expect(problems).toEqual([])
  })
})

describe('a close whose answer is lost', () => {
  it.each([
    ['en', 'the close went through', 'manual'],
    ['en', 'a stop-loss closed the position first', 'stopLoss'],
    ['de', 'a stop-loss closed the position first', 'stopLoss'],
  ] as const)(
    '%s: says what happened when %s, from the close row and its reason',
    async (language, _what, reason) => {
      const { token } = await longWithStopLoss()
      const page = await pages.open(PHONE, token, inLanguage(language))
      await pages.go(page, `/trade?id=1&componentName=2&symbol=${SYMBOL}`)
      const position = page.getByTestId('position')
      await position.waitFor()
      await page.route('**/api/contract/position/stopOrder*', async (route) => {
        // the close reaches the exchange, or the stop-loss fires just before it would
        if (reason === 'stopLoss') await moveThroughStop()
        else await route.fetch()
        // and the connection drops before any answer reaches the page
        await route.abort('connectionreset')
      })
      await position.getByTestId('close-position').click()
      await position.getByTestId('close-confirm').click()
      const texts = readLocale<SubmitTexts>(language).submit
      const told = reason === 'manual' ? texts.wentThrough : texts.closedFirst.stopLoss!
      // the position leaves the list whoever closed it, its card and form with it: the outcome the
      // lookup found is told by an outcome toast
      const outcome = page.locator('[data-testid=toast][data-outcome]')
      await expect.poll(() => outcome.allTextContents()).toContain(told)
      await page.screenshot({ path: screenshotPath(`futures-close-lost-${reason}-${language}-phone`) })
      const orders = await callApi<ContractOrder[]>(suite.stack, '/api/contract/order/list', {}, token)
      expect(orders.flatMap((order) => order.closeReason ?? [])).toEqual([reason])
    },
  )

  it('en: close all says which position a stop-loss closed first, not that it failed to close', async () => {
    const { token } = await longWithStopLoss()
    const page = await pages.open(DESKTOP, token, inLanguage('en'))
    await pages.go(page, `/trade?id=1&componentName=2&symbol=${SYMBOL}`)
    await page.getByTestId('position').waitFor()
    await page.route('**/api/contract/position/stopOrder*', async (route) => {
      await moveThroughStop()
      await route.abort('connectionreset')
    })
    await page.getByTestId('close-all').click()
    await page.getByTestId('close-all-confirm').click()
    const summary = page.getByTestId('close-all-summary')
    const told = readLocale<SubmitTexts>('en').submit.closedFirst.stopLoss!
    await expect
      .poll(() => summary.getByTestId('closed-first').allTextContents())
      .toEqual([`BTC Long 10 · ${told}`])
    expect(await summary.locator('.down').count()).toBe(0)
    await page.screenshot({ path: screenshotPath('futures-close-all-lost-stopLoss-en-desktop') })
  })
})
