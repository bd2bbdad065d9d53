import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES, toDecimal } from '@tradegate/shared'
import { DESKTOP, PHONE, registerFundedThroughUi, inLanguage, screenshotPath, type Viewport } from './stack'
import { readLocale, setUpSuite, signedInPages } from './suite'
import { cutControls, readerProblems } from './cut-texts'

// Options in Chromium against the real gateway and sandbox: buy a call from the chain, watch its mark
// follow the price, let sandbox time pass its expiry, and see the settlement and its payout.

const english = readLocale<{ options: Record<string, string>; option: Record<string, string> }>('en')

interface Position {
  id: number
  strike: string
  quantity: string
  cost: string
  fee: string
  status: string
  settlePrice: string
  payout: string
  expiresAt: number
  salePrice?: string
}

const suite = setUpSuite()
const pages = signedInPages(suite)
let token = ''

/** "1,234.5600 USDT" -> 1234.56 */
function numberIn(text: string | null): number {
  return Number((text ?? '').replace(/[^\d.-]/g, ''))
}

function signedInPage(viewport: Viewport, language = 'en'): Promise<Page> {
  return pages.open(viewport, token, inLanguage(language))
}

function sizeName(viewport: Viewport): string {
  return viewport === PHONE ? 'phone' : 'desktop'
}

async function shoot(page: Page, name: string, viewport: Viewport): Promise<void> {
  await page.screenshot({ path: screenshotPath(`option-${name}-${sizeName(viewport)}`), fullPage: true })
}

/** The user's option positions as the sandbox holds them, read through the gateway like the page does. */
async function positions(status: 'open' | 'settled'): Promise<Position[]> {
  const response = await fetch(`${suite.stack.url}/api/option/position/list?status=${status}`, {
    headers: { satoken: token },
  })
  const envelope = (await response.json()) as { data: { rows: Position[] } }
  return envelope.data.rows
}

/**
 * Which parts of the at-the-money row (call ask, strike, put ask, put delta) lie outside the window or
 * are hidden in the chain's sideways scroll, and on how many lines each side's heading is written.
 */
async function sidesInView(
  page: Page,
): Promise<{ width: number; outside: string[]; headingLines: number[] }> {
  return page.evaluate(`(() => {
    const chain = document.querySelector('[data-testid=option-chain]')
    const scroller = chain.parentElement.getBoundingClientRect()
    const row = chain.querySelector('tr[data-atm=true]')
    const parts = {
      callAsk: row.querySelector('[data-testid=chain-quote][data-kind=call]'),
      strike: row.querySelector('[data-testid=chain-strike-toggle]'),
      putAsk: row.querySelector('[data-testid=chain-quote][data-kind=put]'),
      putDelta: row.querySelector('[data-testid=chain-delta][data-side=put]'),
    }
    const outside = Object.entries(parts).filter(([, element]) => {
      if (!element) return true
      const box = element.getBoundingClientRect()
      return box.left < Math.max(0, scroller.left) - 1 || box.right > Math.min(window.innerWidth, scroller.right) + 1
    }).map(([name]) => name)
    const headingLines = [...chain.querySelectorAll('.chain-sides th[data-side]')].map((heading) => {
      const style = getComputedStyle(heading)
      const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2
      const inner = heading.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
      return Math.round(inner / line)
    })
    return { width: window.innerWidth, outside, headingLines }
  })()`)
}

/** How far the chain's table reaches past its sideways scroll's view, in px: 0 when it all shows. */
function chainScrollsSideways(page: Page): Promise<number> {
  return page.evaluate<number>(`(() => {
    const box = document.querySelector('[data-testid=option-chain]').parentElement
    return box.scrollWidth - box.clientWidth
  })()`)
}

async function sandboxNow(): Promise<number> {
  return (await suite.stack.control<{ now: number }>('/sandbox/time')).now
}

beforeAll(async () => {
  token = (await registerFundedThroughUi(suite.browser, suite.stack, '100000')).token
})

describe.each([PHONE, DESKTOP])('options at %o', (viewport) => {
  it('buys a call from the chain, marks it with the price, and settles it with its payout', async () => {
    const page = await signedInPage(viewport)
    await pages.go(page, '/option')
    const chain = page.getByTestId('option-chain')
    await chain.waitFor()
    await expect.poll(() => chain.locator('tr[data-atm=true]').count()).toBe(1)
    // a phone shows the calls only until the switch says otherwise; a desktop shows both sides
    const putQuotes = chain.locator('[data-testid=chain-quote][data-kind=put]')
    expect(await putQuotes.first().isVisible()).toBe(viewport === DESKTOP)
    const expiresAt = Number(
      await page.locator('[data-testid=expiry-tab][aria-selected=true]').getAttribute('data-expires-at'),
    )

    const atmCall = chain.locator('tr[data-atm=true] [data-testid=chain-quote][data-kind=call]')
    const strike = String(await atmCall.getAttribute('data-strike'))
    await expect.poll(async () => numberIn(await atmCall.textContent())).toBeGreaterThan(0)
    await atmCall.click()
    const ticket = page.getByTestId('option-ticket')
    await ticket.waitFor()
    await page.locator('#order-quantity').fill('0.01')
    for (const figure of [
      'ticket-premium',
      'ticket-fee',
      'ticket-total',
      'ticket-break-even',
      'ticket-max-loss',
    ])
      await expect.poll(async () => numberIn(await page.getByTestId(figure).textContent())).toBeGreaterThan(0)
    // the most a buyer can lose is what the order costs, and break-even sits above the strike by it
    await expect
      .poll(
        async () =>
          (await page.getByTestId('ticket-max-loss').textContent()) ===
          (await page.getByTestId('ticket-total').textContent()),
      )
      .toBe(true)
    expect(numberIn(await page.getByTestId('ticket-break-even').textContent())).toBeGreaterThan(
      Number(strike),
    )
    await shoot(page, 'ticket', viewport)

    await page.getByTestId('option-buy').click()
    const card = page.locator('[data-testid=option-position][data-status=open]')
    await card.waitFor()
    const [bought] = await positions('open')
    expect(bought).toMatchObject({ strike, quantity: '0.01', expiresAt })

    const mark = card.getByTestId('position-mark')
    await expect.poll(async () => numberIn(await mark.textContent())).toBeGreaterThan(0)
    const markBefore = numberIn(await mark.textContent())
    await shoot(page, 'bought', viewport)

    // 3 % up: an at-the-money call of a quarter hour is then deep in the money and worth far more
    await suite.stack.control('/sandbox/price', {
      symbol: 'btcusdt',
      price: (Number(strike) * 1.03).toFixed(2),
    })
    await expect.poll(async () => numberIn(await mark.textContent())).toBeGreaterThan(markBefore * 2)
    const pnl = numberIn(await card.getByTestId('position-pnl').textContent())
    expect(pnl).toBeGreaterThan(0)
    await shoot(page, 'marked', viewport)

    await suite.stack.control('/sandbox/time', { advanceMs: expiresAt - (await sandboxNow()) + 1000 })
    const banner = page.getByTestId('option-settlement')
    await banner.waitFor()
    const settled = (await positions('settled')).find((row) => row.id === bought!.id)!
    // intrinsic value at the feed price of the moment it settled, for 0.01 BTC, truncated to 8 places
    const expected = toDecimal(settled.settlePrice).minus(strike).times('0.01').toDecimalPlaces(8, 1)
    expect(settled.payout).toBe(expected.toFixed())
    expect(Number(settled.settlePrice)).toBeGreaterThan(Number(strike) * 1.02)
    expect(numberIn(await banner.locator('.settlement-profit').textContent())).toBeCloseTo(
      Number(settled.payout),
      4,
    )
    await page.locator('[data-testid=positions-tab][data-status=settled]').click()
    const settledCard = page.locator(`[data-testid=option-position][data-id="${settled.id}"]`)
    expect(await settledCard.getAttribute('data-status')).toBe('settled')
    // the history tab holds sold and settled positions alike, each saying how it ended
    expect(await page.locator('[data-testid=positions-tab][data-status=settled]').textContent()).toBe(
      'Closed',
    )
    expect(await settledCard.getAttribute('data-outcome')).toBe('settled')
    expect(await settledCard.getByTestId('position-outcome').textContent()).toBe('Settled at expiry')
    expect(await settledCard.getByTestId('position-sale-price').count()).toBe(0)
    expect(numberIn(await settledCard.getByTestId('position-payout').textContent())).toBeCloseTo(
      Number(settled.payout),
      4,
    )
    await shoot(page, 'settled', viewport)

    // the chain has rolled on: its soonest expiry is a later one
    await expect
      .poll(async () =>
        Number(await page.locator('[data-testid=expiry-tab]').first().getAttribute('data-expires-at')),
      )
      .toBeGreaterThan(expiresAt)
  })
})

describe.each([PHONE, DESKTOP])('selling back at %o', (viewport) => {
  it('shows bid, ask and greeks in the chain, buys a call and sells it back at its bid', async () => {
    const page = await signedInPage(viewport)
    await pages.go(page, '/option')
    const chain = page.getByTestId('option-chain')
    await expect.poll(() => chain.locator('tr[data-atm=true]').count()).toBe(1)
    // the strike at the money now, held by its strike: the price may cross to the next strike while
    // the test runs (on a busy machine more likely), and the row under test must stay the same one
    const strike = await chain.locator('tr[data-atm=true]').getAttribute('data-strike')
    const atm = chain.locator(`tr[data-strike="${strike}"]`)
    const ask = atm.locator('[data-testid=chain-quote][data-kind=call]')
    await expect.poll(async () => numberIn(await ask.textContent())).toBeGreaterThan(0)
    // the bid sits under the ask by the spread
    // bid and ask read in one go: the chain re-prices every second, and two reads could pair the
    // bid of one moment with the ask of an earlier, cheaper one
    const quotes = await atm.evaluate((row) => ({
      ask: row.querySelector('[data-testid=chain-quote][data-kind=call]')?.textContent ?? '',
      bid: row.querySelector('[data-testid=chain-bid][data-side=call]')?.textContent ?? '',
    }))
    const bid = numberIn(quotes.bid)
    expect(bid).toBeGreaterThan(0)
    expect(bid).toBeLessThan(numberIn(quotes.ask))
    const delta = numberIn(await atm.locator('[data-testid=chain-delta][data-side=call]').textContent())
    expect(delta).toBeGreaterThan(0.2)
    expect(delta).toBeLessThan(0.8)
    // every delta in the chain at the same four places, so the column lines up
    const deltas = await page.evaluate(() =>
      Array.from(document.querySelectorAll('[data-testid=chain-delta]'), (cell) => cell.textContent ?? ''),
    )
    const drawnDeltas = deltas.filter((text) => text !== '--')
    expect(drawnDeltas.length).toBeGreaterThan(1)
    expect(drawnDeltas.filter((text) => !/^[-−]?\d\.\d{4}$/.test(text))).toEqual([])
    // every strike's ask carries the volatility it is priced at
    expect(numberIn(await atm.locator('[data-testid=chain-iv]').first().textContent())).toBeGreaterThan(0)

    // the strike's greeks open under its row from the keyboard: from the call's ask, Tab reaches the strike
    await ask.focus()
    await page.keyboard.press('Tab')
    const toggle = atm.getByTestId('chain-strike-toggle')
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await page.keyboard.press('Enter')
    // the row opens on its next render, which a busy machine may hold back a moment
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true')
    const greeks = page.getByTestId('chain-greeks').getByTestId('greeks-call')
    const greek = async (name: string) => numberIn(await greeks.getByTestId(`greek-${name}`).textContent())
    await expect.poll(() => greek('gamma')).toBeGreaterThan(0)
    // the panel's delta is its row's: both read in one go, as the chain re-prices every second and an
    // option this near expiry moves its delta by more than the tolerance between two reads
    const deltaGap = async () => {
      const [row, panel] = await page.evaluate(
        (rowSelector) =>
          [rowSelector, '[data-testid=chain-greeks] [data-testid=greeks-call] [data-testid=greek-delta]'].map(
            (selector) => document.querySelectorAll(selector)[0]?.textContent ?? '',
          ),
        `tr[data-strike="${strike}"] [data-testid=chain-delta][data-side=call]`,
      )
      return Math.abs(numberIn(row!) - numberIn(panel!))
    }
    await expect.poll(deltaGap).toBeLessThan(0.05)
    expect(await greek('theta')).toBeLessThan(0)
    expect(await greek('vega')).toBeGreaterThan(0)
    // the soonest expiry is under an hour away: theta per minute, not per day, and the figure is
    // less than the premium (a day of decay would be many times it)
    expect(
      await greeks.getByTestId('greek-theta').locator('xpath=preceding-sibling::span').textContent(),
    ).toBe('Theta/min')
    expect(Math.abs(await greek('theta'))).toBeLessThan(numberIn(quotes.ask))
    await shoot(page, 'strike-greeks', viewport)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('chain-greeks').count()).toBe(0)
    const markIv = numberIn(await page.getByTestId('chain-mark-iv').textContent())

    await ask.click()
    await page.getByTestId('option-ticket').waitFor()
    await page.locator('#order-quantity').fill('0.01')
    // the ask is priced at the mark's volatility; the bid, lower, implies a lower one
    const askIv = page.getByTestId('ticket-ask-iv')
    await expect.poll(async () => numberIn(await askIv.textContent())).toBeGreaterThan(0)
    expect(numberIn(await askIv.textContent())).toBeCloseTo(markIv, 1)
    expect(numberIn(await page.getByTestId('ticket-bid-iv').textContent())).toBeLessThan(markIv)
    await page.getByTestId('option-buy').click()

    const card = page.locator('[data-testid=option-position][data-status=open]').first()
    await card.waitFor()
    const id = Number(await card.getAttribute('data-id'))
    await expect
      .poll(async () => numberIn(await card.getByTestId('position-sale').textContent()))
      .toBeGreaterThan(0)
    await card.getByTestId('option-sell').click()
    await shoot(page, 'sell-confirm', viewport)
    // the question is a dialog over the screen, outside the card
    await page.getByTestId('option-sell-confirm').click()

    await expect
      .poll(async () => (await positions('settled')).find((row) => row.id === id)?.salePrice)
      .toBeTruthy()
    const sold = (await positions('settled')).find((row) => row.id === id)!
    expect(Number(sold.payout)).toBeGreaterThan(0)
    await page.locator('[data-testid=positions-tab][data-status=settled]').click()
    const soldCard = page.locator(`[data-testid=option-position][data-id="${id}"]`)
    await expect
      .poll(async () => numberIn(await soldCard.getByTestId('position-sale-price').textContent()))
      // shown to 4 places, cut rather than rounded
      .toBeCloseTo(Number(sold.salePrice), 3)
    // listed as sold before expiry, with its sale price and proceeds, not as settled at expiry
    expect(await soldCard.getAttribute('data-outcome')).toBe('sold')
    expect(await soldCard.getByTestId('position-outcome').textContent()).toBe('Sold before expiry')
    expect(await soldCard.textContent()).not.toMatch(/Settle/)
    expect(numberIn(await soldCard.getByTestId('position-payout').textContent())).toBeCloseTo(
      Number(sold.payout),
      3,
    )
    await shoot(page, 'sold', viewport)
  })
})

describe('the Options trade tab and the rules', () => {
  it('opens the chain in the trade screen when the settings open the tab', async () => {
    await suite.stack.control('/sandbox/settings', {
      PLAYING_SETTING: [
        { key: 'Optional', isOpen: true, sort: 0 },
        { key: 'SecondContract', isOpen: true, sort: 1 },
        { key: 'BBTrading', isOpen: false, sort: 2 },
        { key: 'Ustandard', isOpen: false, sort: 3 },
        { key: 'Option', isOpen: true, sort: 4 },
      ],
    })
    await suite.stack.gateway.responseCache.purge()
    const page = await signedInPage(DESKTOP)
    await pages.go(page, '/trade?id=1&componentName=4&symbol=ethusdt')
    await page.locator('[data-trade-tab=Option][aria-selected=true]').waitFor()
    const chain = page.getByTestId('option-chain')
    await expect.poll(() => chain.locator('tr[data-atm=true]').count()).toBe(1)
    // the chain is the one of the pair picked: its strikes sit around the ETH price, not BTC's
    const strike = Number(await chain.locator('tr[data-atm=true]').getAttribute('data-strike'))
    const eth = Number(suite.stack.sandbox.state.market.price('ethusdt').toFixed())
    expect(Math.abs(strike - eth) / eth).toBeLessThan(0.05)
    await shoot(page, 'trade-tab', DESKTOP)
  })

  it('shows every option rule in full, in the page language', async () => {
    const page = await signedInPage(PHONE)
    await pages.go(page, '/option')
    const rules = page.getByTestId('option-rules')
    await rules.waitFor()
    const response = await fetch(`${suite.stack.url}/api/option/rules/list?key=OPTION_RULE`, {
      headers: { language: 'en' },
    })
    const { data } = (await response.json()) as { data: Array<{ title: string; content: string }> }
    expect(data.length).toBeGreaterThanOrEqual(4)
    for (const article of data) {
      await expect.poll(() => rules.getByText(article.content, { exact: true }).isVisible()).toBe(true)
    }
    expect(await page.getByRole('region', { name: english.option.rules }).isVisible()).toBe(true)
  })
})

describe('a walk through the screen in English, Arabic, German and Japanese', () => {
  it.each(['en', 'ar', 'de', 'ja'])('%s, at both sizes', async (language) => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await signedInPage(viewport, language)
      await pages.go(page, '/option')
      const chain = page.getByTestId('option-chain')
      await expect.poll(() => chain.locator('tr[data-atm=true]').count()).toBe(1)
      expect(await page.evaluate('document.documentElement.dir')).toBe(language === 'ar' ? 'rtl' : 'ltr')
      await chain.locator('tr[data-atm=true] [data-testid=chain-quote][data-kind=call]').click()
      await page.getByTestId('option-ticket').waitFor()
      await expect
        .poll(async () => numberIn(await page.getByTestId('ticket-total').textContent()))
        .toBeGreaterThan(0)
      // the rules come in the page language, every one of them in full
      const response = await fetch(`${suite.stack.url}/api/option/rules/list?key=OPTION_RULE`, {
        headers: { language },
      })
      const { data } = (await response.json()) as { data: Array<{ content: string }> }
      for (const article of data) {
        await expect
          .poll(() => page.getByTestId('option-rules').getByText(article.content, { exact: true }).count())
          .toBe(1)
      }
      // no raw key anywhere on the screen
      expect(await page.locator('body').textContent()).not.toMatch(/\boptions?\.[a-zA-Z_]+\b/)
      // nothing runs off a phone: the page is no wider than the screen
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width)
      // a phone shows one side of the chain without the minor greeks so that it fits: the strike
      // column is not left in the table's sideways scroll
      if (viewport === PHONE) expect(await chainScrollsSideways(page)).toBeLessThanOrEqual(0)
      // a desktop shows calls, the strike and puts side by side, all inside the window, from 1280 px
      // wide up, and each side's heading on one line ("Call/s" was seen)
      if (viewport === DESKTOP) {
        for (const width of [viewport.width, 1280]) {
          await page.setViewportSize({ width, height: viewport.height })
          expect(await sidesInView(page)).toEqual({ width, outside: [], headingLines: [1, 1] })
        }
      }
      // no text cut (no word broken, no tab or placeholder hidden), no control cut, no words misordered
      expect(await readerProblems(page, language)).toEqual([])
      await shoot(page, `walk-${language}`, viewport)
    }
  })
})

describe('the chain on a phone, one step past the walk', () => {
  it('fits a 390 px phone in every language with six-digit strikes: no sideways scroll, no control off the screen', async () => {
    // the walk above sees four languages at today's price; the columns must leave room for the longest
    // words of every language and for strikes and premiums a digit longer
    const market = suite.stack.sandbox.state.market
    const before = market.price('btcusdt')
    await suite.stack.control('/sandbox/price', { symbol: 'btcusdt', price: '250000' })
    try {
      const problems: string[] = []
      for (const language of BUNDLE_LANGUAGES) {
        const page = await signedInPage(PHONE, language)
        await pages.go(page, '/option')
        const atm = page.getByTestId('option-chain').locator('tr[data-atm=true]')
        await expect.poll(async () => Number(await atm.getAttribute('data-strike'))).toBeGreaterThan(100_000)
        const sideways = await chainScrollsSideways(page)
        if (sideways > 0) problems.push(`${language}: the chain scrolls ${sideways} px sideways`)
        for (const problem of await cutControls(page, language)) problems.push(`${language}: ${problem}`)
        await page.close()
      }
      expect(problems).toEqual([])
    } finally {
      await suite.stack.control('/sandbox/price', { symbol: 'btcusdt', price: before.toFixed() })
    }
  })
})
