import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  DESKTOP,
  createFundedUser,
  PHONE,
  painted,
  postApi,
  registerFundedThroughUi,
  screenshotPath,
  TEST_PASSWORD,
  type Viewport,
  waitFor,
} from './stack'
import { readLocale, setUpSuite, signedInPages } from './suite'

// The markets and trading screens in Chromium against the real gateway and sandbox, at both sizes.

const english = readLocale<{
  errors: Record<string, string>
  account: Record<string, string>
  common: Record<string, string>
}>('en')

// a 4-second first period so a second contract settles within the test
const suite = setUpSuite({ secondPeriodSeconds: [4, 60, 120, 300] })
const pages = signedInPages(suite)
const { go } = pages
let email = ''
let token = ''

/** "100,080.00 USDT" -> 100080 */
function numberIn(text: string | null): number {
  return Number((text ?? '').replace(/[^\d.-]/g, ''))
}

function signedInPage(viewport: Viewport): Promise<Page> {
  return pages.open(viewport, token)
}

/**
 * A page of a user of its own, funded with `usdt`: for a test that reads its balances as absolute
 * figures, which the file's shared account holds only before the file's other tests spend from it.
 */
async function ownAccountPage(viewport: Viewport, usdt: string): Promise<Page> {
  return pages.open(viewport, (await createFundedUser(suite.stack, usdt)).token)
}

/** In-app navigation: the page is not reloaded, so SWR's cache is what the next screen shows. */
async function navigateInApp(page: Page, route: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#${route}`)}`)
}

async function lastPrice(page: Page): Promise<number> {
  const price = page.getByTestId('ticker-price')
  await expect.poll(async () => numberIn(await price.textContent())).toBeGreaterThan(0)
  return numberIn(await price.textContent())
}

async function shoot(page: Page, name: string, viewport: Viewport): Promise<void> {
  await painted(page)
  await page.screenshot({
    path: screenshotPath(`trading-${name}-${viewport === PHONE ? 'phone' : 'desktop'}`),
  })
}

beforeAll(async () => {
  const account = await registerFundedThroughUi(suite.browser, suite.stack, '100000')
  email = account.email
  token = account.token
})

describe('spot', () => {
  it('a market buy changes the balance; a limit buy fills once the price crosses it', async () => {
    const page = await ownAccountPage(PHONE, '100000')
    await go(page, '/trade?id=1&componentName=3&symbol=ethusdt')
    const available = page.getByTestId('spot-available')
    await expect.poll(async () => numberIn(await available.textContent())).toBe(100_080)

    await page.locator('#order-amount').fill('0.5')
    await page.getByTestId('spot-submit').click()
    await expect.poll(async () => numberIn(await available.textContent())).toBeLessThan(100_080)
    const afterBuy = numberIn(await available.textContent())
    const price = await lastPrice(page)
    // 0.5 ETH plus the 0.2 % fee, at a price that kept moving while the order was sent
    expect(100_080 - afterBuy).toBeGreaterThan(price * 0.5 * 0.95)
    expect(100_080 - afterBuy).toBeLessThan(price * 0.5 * 1.05)
    await page.locator('[data-choice=sell]').click()
    await expect.poll(async () => numberIn(await available.textContent())).toBe(0.5)
    await page.locator('[data-choice=buy]').click()

    const limit = Math.floor(price * 0.9)
    await page.locator('[data-choice=limit]').click()
    await page.locator('#order-price').fill(String(limit))
    await page.locator('#order-amount').fill('0.1')
    await page.getByTestId('spot-submit').click()
    const orders = page.getByTestId('spot-orders')
    await orders.locator('[data-order-status=open]').waitFor()
    await shoot(page, 'spot-open-limit', PHONE)

    await suite.stack.control('/sandbox/price', {
      symbol: 'ethusdt',
      price: String(Math.floor(limit * 0.95)),
    })
    await expect.poll(() => orders.locator('[data-order-status=open]').count()).toBe(0)
    await page.getByTestId('spot-history-tab').click()
    await expect
      .poll(() => page.getByTestId('spot-history').locator('[data-order-status=filled]').count())
      .toBe(2)
    await page.locator('[data-choice=sell]').click()
    await expect.poll(async () => numberIn(await available.textContent())).toBe(0.6)
  })

  it("an order over the pair's maximum shows the server's message and keeps the form's values", async () => {
    const page = await signedInPage(DESKTOP)
    await go(page, '/trade?id=1&componentName=3&symbol=ethusdt')
    await page.getByTestId('spot-available').waitFor()
    await page.locator('[data-choice=limit]').click()
    await page.locator('#order-price').fill('3000')
    // 1000 ETH at 3000 is 3,000,000 USDT, above the pair's 1,000,000 maximum
    await page.locator('#order-amount').fill('1000')
    await page.getByTestId('spot-submit').click()
    await expect(page.getByTestId('order-error').textContent()).resolves.toBe(
      english.errors.orderAboveMaximum,
    )
    expect(await page.locator('#order-amount').inputValue()).toBe('1000')
    expect(await page.locator('#order-price').inputValue()).toBe('3000')
    expect(await page.locator('[data-choice=limit]').getAttribute('aria-pressed')).toBe('true')
    await shoot(page, 'spot-refused', DESKTOP)
  })
})

describe('contracts', () => {
  it('PnL follows the price; margin is added and removed; closing pays the result into the balance', async () => {
    const page = await ownAccountPage(DESKTOP, '100000')
    await go(page, '/trade?id=1&componentName=2&symbol=btcusdt')
    const available = page.getByTestId('contract-available')
    await available.waitFor()
    await page.getByTestId('open-transfer').click()
    await page.locator('#order-transfer').fill('1000')
    await page.getByTestId('transfer-form').locator('button[type=submit]').click()
    await expect.poll(async () => numberIn(await available.textContent())).toBe(1000)

    await page.locator('[data-leverage="10"]').click()
    await page.locator('#order-shares').fill('10')
    // 10 shares of 10 USDT at 10x: 10 USDT margin, liquidation 10 % below the price
    await expect(page.getByTestId('contract-margin').textContent()).resolves.toBe('10.0000 USDT')
    const price = await lastPrice(page)
    const liquidation = numberIn(await page.getByTestId('contract-liquidation').textContent())
    expect(liquidation / price).toBeGreaterThan(0.88)
    expect(liquidation / price).toBeLessThan(0.92)
    await page.getByTestId('contract-submit').click()
    const position = page.getByTestId('position')
    await position.waitFor()
    const pnl = position.getByTestId('position-pnl')

    await suite.stack.control('/sandbox/price', {
      symbol: 'btcusdt',
      price: String(Math.round(price * 1.05)),
    })
    // 100 USDT of position, 5 % up: about +5
    await expect.poll(async () => numberIn(await pnl.textContent())).toBeGreaterThan(3)
    await shoot(page, 'contract-position', DESKTOP)
    await suite.stack.control('/sandbox/price', {
      symbol: 'btcusdt',
      price: String(Math.round(price * 0.97)),
    })
    await expect.poll(async () => numberIn(await pnl.textContent())).toBeLessThan(-1)

    await position.getByTestId('adjust-margin').click()
    await position.locator('input[name^=margin-]').fill('5')
    await position.getByTestId('margin-add').click()
    await expect.poll(() => position.getByTestId('position-margin').textContent()).toBe('15.0000')
    await position.locator('input[name^=margin-]').fill('2')
    await position.getByTestId('margin-remove').click()
    await expect.poll(() => position.getByTestId('position-margin').textContent()).toBe('13.0000')

    await position.getByTestId('edit-loss').click()
    // take-profit first, stop-loss second, in the editor as in the label "TP / SL"
    expect(
      await position
        .getByTestId('loss-editor')
        .locator('input')
        .evaluateAll((inputs) => inputs.map((input) => input.getAttribute('name')?.replace(/-\d+$/, ''))),
    ).toEqual(['take-profit', 'stop-loss'])
    await position.locator('input[name^=stop-loss-]').fill(String(Math.round(price * 0.5)))
    await position.getByTestId('loss-save').click()
    // shown as "take-profit / stop-loss": the stop is set, the take-profit is not
    await expect
      .poll(async () => (await position.getByTestId('position-loss').textContent())?.split(' / '))
      .toEqual(['--', expect.stringMatching(/\d/)])
    expect(numberIn((await position.getByTestId('position-loss').textContent())?.split('/')[1] ?? '')).toBe(
      Math.round(price * 0.5),
    )
    await position.getByTestId('loss-cancel').click()
    await expect.poll(() => position.getByTestId('position-loss').textContent()).toBe('--')

    await position.getByTestId('close-position').click()
    // closing asks first: the whole position at market is what is offered
    expect(await page.getByTestId('position').count()).toBe(1)
    await position.getByTestId('close-confirm').click()
    await expect.poll(() => page.getByTestId('position').count()).toBe(0)
    const closed = await page.evaluate(
      `fetch('/api/contract/position/list?status=closed', { headers: { satoken: localStorage.getItem('_token') } }).then((r) => r.json())`,
    )
    const [row] = (closed as { data: { rows: Array<{ pnl: string }> } }).data.rows
    // what came back: 1000 less the 0.1 opening and 0.1 closing fees, plus the realised PnL
    const expected = 1000 - 0.1 - 0.1 + Number(row?.pnl)
    await expect
      .poll(async () => numberIn(await available.textContent()))
      .toBeCloseTo(Math.floor(expected * 100) / 100, 2)
  })
})

describe('second contracts', () => {
  it('counts down to settlement and shows the result', async () => {
    const page = await signedInPage(PHONE)
    await go(page, '/trade?id=1&componentName=1&symbol=btcusdt')
    await page.locator('[data-period="4"]').click()
    await page.locator('#order-amount').fill('20')
    await page.getByTestId('second-up').click()
    const countdown = page.getByTestId('second-countdown').first()
    await countdown.waitFor()
    expect(Number(await countdown.getAttribute('data-seconds'))).toBeGreaterThan(0)
    await shoot(page, 'second-countdown', PHONE)
    const result = page.getByTestId('second-result')
    await result.waitFor()
    expect(['win', 'lose', 'draw']).toContain(await result.getAttribute('data-status'))
    await expect
      .poll(() => page.getByTestId('second-orders').locator('[data-order-status=open]').count())
      .toBe(0)
    // a phone has no time column: the row's time, with its zone, is on the line under it
    const line = page.getByTestId('second-orders').getByTestId('order-detail').first()
    expect(await line.isVisible()).toBe(true)
    expect(await line.textContent()).toMatch(/\d\d:\d\d:\d\d UTC\+8/)
    await shoot(page, 'second-settled', PHONE)
  })

  it('asks for the fund password when the settings require one, and places the order only with the right one', async () => {
    // the settings are cached by the gateway, so each change is followed by a purge
    const requireFundPassword = async (second: boolean) => {
      await suite.stack.control('/sandbox/settings', { FUND_PASSWORD_SETTING: { second } })
      await suite.stack.gateway.responseCache.purge()
    }
    await requireFundPassword(true)
    try {
      const page = await signedInPage(PHONE)
      const placeWith = async (fundPassword: string) => {
        await go(page, '/trade?id=1&componentName=1&symbol=btcusdt')
        await page.locator('[data-period="4"]').click()
        await page.locator('#order-amount').fill('20')
        await page.locator('input[name=fundPwd]').fill(fundPassword)
        await page.getByTestId('second-up').click()
      }
      const orderError = () => page.getByTestId('order-error').textContent()

      await placeWith('fund-pass-9')
      await expect.poll(orderError).toBe(english.errors.fundPasswordNotSet)

      await go(page, '/fund-password')
      await page.locator('input[name=newPwd]').waitFor()
      // a first fund password ends no session, so nothing says it would
      expect(await page.getByTestId('ends-sessions').count()).toBe(0)
      await page.locator('input[name=newPwd]').fill('fund-pass-9')
      await page.locator('input[name=confirm]').fill('fund-pass-9')
      // the default settings ask for an e-mail code before a fund password is set
      await page.getByTestId('send-code').click()
      const { code } = await waitFor(() =>
        suite.stack.control<{ code: string }>(`/sandbox/last-code?to=${encodeURIComponent(email)}`),
      )
      await page.locator('input[name=code]').fill(code)
      await page.locator('button[type=submit]').click()
      await expect.poll(() => page.getByTestId('toast').last().textContent()).toBe(english.common.success)
      await go(page, '/secrety')
      await expect
        .poll(() => page.getByRole('link', { name: english.account.fundPassword }).textContent())
        .toContain(english.account.change)

      await placeWith('not-the-fund-pass')
      await expect.poll(orderError).toBe(english.errors.wrongFundPassword)
      expect(await page.getByTestId('second-countdown').count()).toBe(0)

      await placeWith('fund-pass-9')
      await page.getByTestId('second-countdown').first().waitFor()
      expect(await page.getByTestId('order-error').count()).toBe(0)

      // the change asks for a fresh code too, and sends it with the passwords
      await go(page, '/fund-password')
      // a change does, and the screen says so before it is made
      await page.getByTestId('ends-sessions').waitFor()
      await page.locator('input[name=oldPwd]').fill('fund-pass-9')
      await page.locator('input[name=newPwd]').fill('fund-pass-8')
      await page.locator('input[name=confirm]').fill('fund-pass-8')
      expect(await page.locator('button[type=submit]').isDisabled()).toBe(true)
      await page.getByTestId('send-code').click()
      // the first code was used up, so the one found is the new one
      const change = await waitFor(() =>
        suite.stack.control<{ code: string }>(`/sandbox/last-code?to=${encodeURIComponent(email)}`),
      )
      await page.locator('input[name=code]').fill(change.code)
      const changed = page.waitForResponse((answer) => answer.url().includes('/api/user/updatePwd'))
      await page.locator('button[type=submit]').click()
      const answer = await changed
      expect(new URL(answer.url()).searchParams.get('code')).toBe(change.code)
      expect((await answer.json()).code).toBe(200)
      // a new fund password ends every session of the user, this page's included: the page says so on
      // the sign-in screen. The file's later tests sign in afresh, only once the end has been applied: a
      // sign-in racing the change would be ended with the rest
      await page.waitForURL(/#\/login/)
      await expect.poll(() => page.getByTestId('session-ended').count()).toBe(1)
      // which is the outcome told: no "done" toast covers the sign-in form
      expect(await page.getByTestId('toast').allTextContents()).not.toContain(english.common.success)
      const session = await postApi<{ satoken: string }>(suite.stack, '/api/user/login', {
        type: 'email',
        username: email,
        password: TEST_PASSWORD,
      })
      token = session.satoken
    } finally {
      await requireFundPassword(false)
    }
  })
})

describe('chart', () => {
  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)('loads history and updates live (%s)', async (_name, viewport) => {
    const page = await signedInPage(viewport)
    await go(page, '/tradeChart?symbol=btcusdt&interval=1min')
    const chart = page.getByTestId('candle-chart')
    await expect.poll(async () => Number(await chart.getAttribute('data-candles'))).toBeGreaterThan(10)
    const first = `${await chart.getAttribute('data-last-time')}|${await chart.getAttribute('data-last-close')}`
    await expect
      .poll(
        async () =>
          `${await chart.getAttribute('data-last-time')}|${await chart.getAttribute('data-last-close')}`,
      )
      .not.toBe(first)
    expect(await chart.locator('canvas').count()).toBeGreaterThan(0)
    await shoot(page, 'chart', viewport)
    await page.locator('[data-interval="1day"]').click()
    await expect.poll(() => page.getByTestId('candle-chart').getAttribute('data-interval')).toBe('1day')
    await expect
      .poll(async () => Number(await page.getByTestId('candle-chart').getAttribute('data-candles')))
      .toBeGreaterThan(0)
  })
})

describe('watchlist', () => {
  it('an add from search and a removal from /addOptional show on /store and in the trade header', async () => {
    // a user of its own, whose watchlist starts empty whatever the file's other tests put on theirs
    const page = await pages.open(PHONE, (await createFundedUser(suite.stack)).token)
    await go(page, '/store')
    await page.locator('[data-market-tab=Optional][aria-selected=true]').waitFor()
    await page.getByTestId('open-search').click()
    await page.getByTestId('coin-search').fill('sol')
    await page.getByTestId('watch-solusdt').click()
    await expect.poll(() => page.getByTestId('watch-solusdt').getAttribute('aria-pressed')).toBe('true')
    await shoot(page, 'search', PHONE)

    await navigateInApp(page, '/store')
    await page.locator('[data-market-tab=Optional][aria-selected=true]').waitFor()
    await page.getByTestId('market-table').locator('tr[data-symbol=solusdt]').waitFor()
    await navigateInApp(page, '/trade?id=1&componentName=0')
    await page.getByTestId('trade-watchlist').locator('tr[data-symbol=solusdt]').waitFor()

    await navigateInApp(page, '/addOptional')
    const mine = page.locator('section').first()
    await mine.getByTestId('watch-solusdt').click()
    await expect.poll(() => mine.locator('[data-symbol=solusdt]').count()).toBe(0)
    await navigateInApp(page, '/store')
    await page.locator('[data-market-tab=Optional][aria-selected=true]').waitFor()
    await page.locator('.no-data').waitFor()
    expect(await page.locator('tr[data-symbol=solusdt]').count()).toBe(0)
  })
})

describe('tabs from the keyboard', () => {
  it('moves between the market tabs with the arrow keys, Home and End, mirrored right to left', async () => {
    const page = await signedInPage(PHONE)
    await go(page, '/store')
    await page.locator('[data-market-tab][aria-selected=true]').waitFor()
    const keys = await page
      .locator('[data-market-tab]')
      .evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute('data-market-tab')!))
    expect(keys.length).toBeGreaterThan(2)
    const chosen = () => page.locator('[data-market-tab][aria-selected=true]').getAttribute('data-market-tab')
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-market-tab'))
    const expectOn = async (key: string) => {
      await expect.poll(chosen).toBe(key)
      expect(await focused()).toBe(key)
    }
    // Tab reaches the chosen tab only; the arrows do the rest
    expect(await page.locator('[data-market-tab][tabindex="0"]').count()).toBe(1)
    await page.locator('[data-market-tab][tabindex="0"]').focus()
    await page.keyboard.press('Home')
    await expectOn(keys[0]!)
    await page.keyboard.press('ArrowRight')
    await expectOn(keys[1]!)
    await page.keyboard.press('End')
    await expectOn(keys.at(-1)!)
    await page.keyboard.press('ArrowRight')
    await expectOn(keys[0]!)
    await page.keyboard.press('ArrowLeft')
    await expectOn(keys.at(-1)!)

    // in Arabic the row runs right to left, and so does ArrowLeft
    await page.context().addInitScript(() => localStorage.setItem('_language', 'ar'))
    await page.reload()
    await page.waitForFunction(() => document.documentElement.dir === 'rtl')
    await page.locator('[data-market-tab][tabindex="0"]').focus()
    await page.keyboard.press('Home')
    await expectOn(keys[0]!)
    await page.keyboard.press('ArrowLeft')
    await expectOn(keys[1]!)
  })
})

describe('screens', () => {
  const SCREENS: ReadonlyArray<[name: string, route: string, ready: string]> = [
    ['store', '/store', '[data-market-tab]'],
    ['store-spot', '/store', '[data-market-tab]'],
    ['search', '/search', '[data-testid=coin-results]'],
    ['add-optional', '/addOptional', '[data-testid=coin-results]'],
    ['trade-spot', '/trade?id=1&componentName=3&symbol=btcusdt', '[data-testid=spot-form]'],
    ['trade-contract', '/trade?id=1&componentName=2&symbol=btcusdt', '[data-testid=contract-form]'],
    ['trade-second', '/trade?id=1&componentName=1&symbol=btcusdt', '[data-testid=second-form]'],
    ['trade-options', '/trade?id=1&componentName=4&symbol=btcusdt', '[data-testid=option-rules]'],
    ['trade-watchlist', '/trade?id=1&componentName=0', '[data-testid=trade-watchlist]'],
    ['option', '/option', '[data-testid=option-rules]'],
  ]

  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)('each screen renders with live prices (%s)', async (_name, viewport) => {
    const page = await signedInPage(viewport)
    await go(page, '/store')
    // a few coins on the watchlist, so its screens show rows
    await page.evaluate(`Promise.all(['btcusdt', 'ethusdt', 'solusdt'].map((symbol) => fetch('/api/userCoin/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', satoken: localStorage.getItem('_token') },
      body: JSON.stringify({ symbol }),
    })))`)
    for (const [name, route, ready] of SCREENS) {
      await go(page, route)
      await page.locator(ready).first().waitFor()
      if (name === 'store-spot') await page.locator('[data-market-tab=BBTrading]').click()
      if (name.startsWith('trade-') && name !== 'trade-watchlist') await lastPrice(page)
      if (name.startsWith('store')) {
        await expect
          .poll(async () => numberIn(await page.getByTestId('row-price').first().textContent()))
          .toBeGreaterThan(0)
      }
      await shoot(page, name, viewport)
    }
  })
})
