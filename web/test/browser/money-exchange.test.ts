import { Decimal } from 'decimal.js'
import type { Page, Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  coinName,
  coinPrecisions,
  exactText,
  exchangeFigures,
  precisionOf,
  truncateToPrecision,
  precisionText,
  rateText,
  type CoinList,
  type ExchangeQuote,
} from '@tradegate/shared'
import {
  DESKTOP,
  PHONE,
  callApi,
  createFundedUser,
  screenshotPath,
  openSignedInPage,
  type Viewport,
} from './stack'
import { setUpSuite } from './suite'

// Flash exchange in Chromium against the real gateway and sandbox: searchable pairs, the balance and
// Max, a quote whose timer renews it, rate, fee and estimate at the coins' precisions, a confirmation,
// and an answer lost on the way looked up in the records.

const suite = setUpSuite()

interface Balance {
  account: string
  coin: string
  available: string
}

/** A coin's places by the client's own rule, read from the coin list the gateway serves. */
async function placesOf(coin: string): Promise<number> {
  return precisionOf(coinPrecisions(await callApi<CoinList>(suite.stack, '/api/common/getCoinList')), coin)
}

async function platform(token: string, coin: string): Promise<string> {
  const rows = await callApi<Balance[]>(suite.stack, '/api/asset/assetBalance', {}, token)
  return rows.find((row) => row.account === 'platform' && row.coin === coin)?.available ?? '0'
}

/** The next quote the page receives (a renewal included). */
async function nextQuote(page: Page): Promise<ExchangeQuote> {
  const response = await page.waitForResponse((answer) => answer.url().includes('/api/texchange/quote'), {
    timeout: 30_000,
  })
  return ((await response.json()) as { data: ExchangeQuote }).data
}

async function openExchange(viewport: Viewport) {
  const user = await createFundedUser(suite.stack)
  return { user, ...(await openSignedInPage(suite.browser, viewport, user.token)) }
}

describe('flash exchange', () => {
  it('names and shows to the last digit what rounding to the coin keeps, and gives exactly what it shows', async () => {
    const { user, context, page, errors } = await openExchange(PHONE)
    // every quote the page receives: a busy machine may see one renewed while the figures are read
    const quotes: ExchangeQuote[] = []
    page.on('response', (answer) => {
      if (answer.url().includes('/api/texchange/quote'))
        // a quote still arriving when the test closes its page has no body to read: not one the page showed
        answer.json().then(
          (body: { data: ExchangeQuote }) => quotes.push(body.data),
          () => undefined,
        )
    })
    await page.goto(`${suite.stack.url}/#/flashExchange?from=usdt&to=btc`)
    const btcPlaces = await placesOf('btc')
    await page.locator('input[name=amount]').fill('100')
    const read = () =>
      page.evaluate<string[]>(
        `['exchange-fee', 'exchange-receive'].map((id) => document.querySelector('[data-testid=' + id + ']')?.textContent ?? '')`,
      )
    // the fee line and the receive line as one quote's figures: which quote, the page's own
    const shownQuote = async () => {
      const [fee, receive] = await read()
      return quotes.find((quote) => {
        const figures = exchangeFigures('100', quote.price, quote.feeRate, btcPlaces)
        return (
          fee === `${figures.kept.toFixed()} BTC` &&
          receive === `${precisionText(figures.received, btcPlaces)} BTC`
        )
      })
    }
    // the quote the poll matched, kept: a second read may meet the renewal that replaced it
    let matched: ExchangeQuote | undefined
    await expect.poll(async () => (matched = await shownQuote())).toBeDefined()
    const quote = matched!
    const figures = exchangeFigures('100', quote.price, quote.feeRate, btcPlaces)
    // BTC is counted to fewer places than 100 USDT converts into: the cut keeps more than the fee
    expect(figures.kept.gt(figures.fee)).toBe(true)
    expect(figures.kept.plus(figures.received).eq(new Decimal('100').times(quote.price))).toBe(true)
    const feeRow = page.locator('.kv', { has: page.getByTestId('exchange-fee') })
    expect(await feeRow.locator('span').first().textContent()).toBe('Fee (0.2%) and rounding')
    await page.screenshot({ path: screenshotPath('phone-money-exchange-rounding') })
    await page.locator('form button[type=submit]').click()
    const shown = await page.getByTestId('exchange-confirm').getByTestId('exchange-receive').textContent()
    await page.getByTestId('exchange-confirm-submit').click()
    // what arrives is what the confirmation showed, with no "about"
    await expect
      .poll(async () => `${precisionText(await platform(user.token, 'btc'), btcPlaces)} BTC`)
      .toBe(shown)
    expect(errors).toEqual([])
    await context.close()
  })

  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`finds a pair by search, quotes with a timer that renews, and confirms at the quoted figures (${label})`, async () => {
      const { user, context, page, errors } = await openExchange(viewport)
      await page.goto(`${suite.stack.url}/#/exchange`)
      const rows = page.getByTestId('exchange-pairs').locator('[data-pair]')
      await rows.first().waitFor()
      const all = await rows.count()
      await page.getByTestId('pair-search').fill('ethereum')
      await expect.poll(() => rows.count()).toBeLessThan(all)
      const shown = await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-pair')))
      expect(shown.length).toBeGreaterThan(0)
      expect(shown).toContain('usdt-eth')
      // each pair holds a coin of that name (Ethereum, Ethereum Classic), by code or by name
      for (const pair of shown)
        expect(
          (pair ?? '').split('-').some((coin: string) => coinName(coin).toLowerCase().includes('ethereum')),
        ).toBe(true)

      // a code, or the start of a word of a name: "eth" is not inside "Tether" for this search
      await page.getByTestId('pair-search').fill('eth')
      await expect.poll(() => rows.count()).toBeLessThan(all)
      const byCode = await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-pair')))
      expect(byCode).toContain('usdt-eth')
      for (const pair of byCode)
        expect(
          (pair ?? '')
            .split('-')
            .some((coin: string) => coin.startsWith('eth') || /(^| )eth/i.test(coinName(coin))),
        ).toBe(true)

      const firstQuote = nextQuote(page)
      await page.locator('[data-pair="usdt-eth"]').click()
      await page.waitForFunction(() => window.location.hash.startsWith('#/flashExchange?from=usdt&to=eth'))
      let quote = await firstQuote
      const ethPlaces = await placesOf('eth')
      const usdt = await platform(user.token, 'usdt')
      await expect
        .poll(() => page.getByTestId('exchange-rate').textContent())
        .toBe(`1 USDT = ${rateText(quote.price, ethPlaces)} ETH`)
      // six significant digits at least, never cut to the two a price of this size gets elsewhere
      expect(rateText(quote.price, ethPlaces).replace(/^0\.0*/, '').length).toBeGreaterThanOrEqual(6)
      const usdtPlaces = await placesOf('usdt')
      await expect
        .poll(async () => (await page.getByTestId('exchange-available').textContent())?.replace(/,/g, ''))
        .toBe(`${precisionText(usdt, usdtPlaces)} USDT`)
      await page.getByTestId('exchange-max').click()
      expect(await page.locator('input[name=amount]').inputValue()).toBe(
        truncateToPrecision(usdt, usdtPlaces).toFixed(),
      )
      await page.locator('input[name=amount]').fill('100')
      const figures = () => exchangeFigures('100', quote.price, quote.feeRate, ethPlaces)
      await expect
        .poll(() => page.getByTestId('exchange-receive').textContent())
        .toBe(`${precisionText(figures().received, ethPlaces)} ETH`)
      expect(await page.getByTestId('exchange-fee').textContent()).toBe(
        `${exactText(figures().kept, ethPlaces)} ETH`,
      )
      const timer = (await page.getByTestId('quote-timer').textContent()) ?? ''
      const secondsLeft = Number(/holds for (\d+) s/.exec(timer)?.[1])
      expect(secondsLeft).toBeGreaterThan(0)
      expect(secondsLeft).toBeLessThanOrEqual(quote.validSeconds)
      await page.screenshot({ path: screenshotPath(`${label}-money-exchange-form`) })

      // the quote runs out and a new one replaces it without a touch
      quote = await nextQuote(page)
      await expect
        .poll(() => page.getByTestId('exchange-rate').textContent())
        .toBe(`1 USDT = ${rateText(quote.price, ethPlaces)} ETH`)

      await page.locator('form button[type=submit]').click()
      const confirm = page.getByTestId('exchange-confirm')
      await confirm.waitFor()
      expect(await confirm.getByTestId('confirm-pay').textContent()).toBe('100.00 USDT')
      await page.screenshot({ path: screenshotPath(`${label}-money-exchange-confirm`) })
      const sent: Request[] = []
      page.on('request', (request) => {
        if (request.url().includes('/api/texchange/currencyExchange')) sent.push(request)
      })
      const ethBefore = await platform(user.token, 'eth')
      // the figures confirmed are those of the quote the exchange is sent with
      const shownReceive = await confirm.getByTestId('exchange-receive').textContent()
      await confirm.getByTestId('exchange-confirm-submit').click()
      await page.getByTestId('toast').filter({ hasText: 'received' }).first().waitFor()
      expect(sent).toHaveLength(1)
      const body = JSON.parse(sent[0]!.postData() ?? '{}') as { quoteId?: string; amount?: string }
      expect(body.amount).toBe('100')
      expect(body.quoteId).toMatch(/^[0-9a-f]{24}$/)
      const received = (
        await callApi<{ rows: Array<{ coin: string; kind: string; amount: string }> }>(
          suite.stack,
          '/api/record/financial?kind=exchange&coin=eth&pageSize=5',
          {},
          user.token,
        )
      ).rows[0]!.amount
      expect(shownReceive).toBe(`${precisionText(received, ethPlaces)} ETH`)
      expect(Number(await platform(user.token, 'eth'))).toBeCloseTo(Number(ethBefore) + Number(received), 12)
      expect(errors).toEqual([])
      await context.close()
    })
  }

  for (const [lost, phase] of [
    ['the answer is lost after the exchange was made', 'wentThrough'],
    ['the request never reaches the exchange', 'notThrough'],
  ] as const) {
    it(`says whether the money moved when ${lost}`, async () => {
      const { user, context, page } = await openExchange(PHONE)
      await page.route('**/api/texchange/currencyExchange', async (route) => {
        if (phase === 'notThrough') return route.abort('connectionreset')
        // forwarded to the real gateway, which makes the exchange; its answer never reaches the page
        await route.fetch()
      })
      const quoted = nextQuote(page)
      await page.goto(`${suite.stack.url}/#/flashExchange?from=usdt&to=btc`)
      await quoted
      await page.locator('input[name=amount]').fill('50')
      await page.locator('form button[type=submit]').click()
      await page.getByTestId('exchange-confirm-submit').click()
      const notice = page.getByTestId('submit-notice')
      await expect.poll(() => notice.getAttribute('data-phase')).toBe(phase)
      await page.screenshot({ path: screenshotPath(`phone-money-exchange-${phase}`) })
      const records = await callApi<{ rows: unknown[] }>(
        suite.stack,
        '/api/record/financial?kind=exchange&coin=usdt&pageSize=5',
        {},
        user.token,
      )
      expect(records.rows).toHaveLength(phase === 'wentThrough' ? 1 : 0)
      await context.close()
    })
  }
})
