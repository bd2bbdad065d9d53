import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  DESKTOP,
  PHONE,
  createFundedAccount,
  createFundedUser,
  inLanguage,
  screenshotPath,
  setFundPassword,
  withWithdrawalsAllDay,
} from './stack'
import { heardPolitely } from './heard'
import { RECONNECT_WAIT_MS, readLocale, setUpSuite, signedInPages } from './suite'

// Balances that follow the user's balance events on an open screen, come back after a dropped socket,
// say when they may be out of date, and one number rule (the coin's precision, the language's marks).

const english = readLocale<{
  balances: Record<string, string>
  notices: Record<string, string>
  errors: Record<string, string>
  withdrawal: Record<string, string>
  kycInfo: Record<string, string>
  signOut: Record<string, string>
}>('en')
const suite = setUpSuite()
const pages = signedInPages(suite)

/** A phone signed in with `token` on `path`, its balance events counted from before the page loads. */
async function openScreen(token: string, path: string, language = 'en') {
  const page = await pages.open(PHONE, token, inLanguage(language))
  const events = watchBalanceEvents(page)
  await pages.go(page, path)
  await page.locator('.app-main .screen').first().waitFor()
  return { page, events }
}

/** Counts the balance events the page's socket receives, so a test knows the subscription is live. */
function watchBalanceEvents(page: Page): { count: () => number } {
  let received = 0
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      if (String(payload).includes('"OWNCOIN"')) received++
    })
  })
  return { count: () => received }
}

/**
 * Deposits `amount` through the sandbox's control call once the page's socket has its subscription,
 * so that the deposit is heard as it happens: one made before the page's first look at the user's
 * events shows in its first figures and is listed untold, and one made before the stream takes effect
 * is told by the lookup that follows. The first deposits are repeated (each a small one) until the
 * page's socket receives an event.
 */
async function depositWhileSubscribed(
  username: string,
  events: { count: () => number },
  amount: string,
): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const before = events.count()
    await suite.stack.control('/sandbox/deposit', { username, coin: 'usdt', amount })
    const deadline = Date.now() + 1500
    while (Date.now() < deadline && events.count() === before)
      await new Promise((done) => setTimeout(done, 50))
    if (events.count() > before) return attempt + 1
  }
  throw new Error('the page never received a balance event')
}

describe('live balances', () => {
  it('shows a deposit on the open wallet within moments, without navigating, with a short notice', async () => {
    const { email: username, token } = await createFundedUser(suite.stack)
    const { page, events } = await openScreen(token, '/wallet')
    await expect.poll(() => page.getByTestId('wallet-total').textContent()).toBe('2,580.00')
    const requests = suite.stack.apiRequests.length
    const notice = english.balances
      .depositArrived!.replace('{{amount}}', '125.50')
      .replace('{{coin}}', 'USDT')
    const heard = await heardPolitely(page)
    const deposits = await depositWhileSubscribed(username, events, '125.5')
    const announced = Date.now()
    const expected = (2580 + 125.5 * deposits).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/, ',')
    await expect.poll(() => page.getByTestId('wallet-total').textContent()).toBe(expected)
    console.info(
      `deposit shown on the open wallet ${Date.now() - announced} ms after its event reached the page`,
    )
    await expect.poll(heard).toContain(notice)
    // the screen fetched the balances again by itself, and is still the wallet
    expect(
      suite.stack.apiRequests.slice(requests).some((url) => url.startsWith('/api/asset/assetBalance')),
    ).toBe(true)
    expect(new URL(page.url()).hash).toBe('#/wallet')
    await page.screenshot({ path: screenshotPath('phone-money-deposit-notice') })
  })

  it('tells a deposit made while the page was taking its streams, once, and lists the one before it as read', async () => {
    const { email: username, token } = await createFundedUser(suite.stack)
    const page = await pages.open(PHONE, token)
    // the page's socket reaches the gateway, but what it sends waits until released: its streams take
    // effect well after its first figures and its first look at the user's events
    const held: Array<() => void> = []
    let holding = true
    await page.routeWebSocket(/\/ws\//, (socket) => {
      const gateway = socket.connectToServer()
      socket.onMessage((message) => {
        if (holding) held.push(() => gateway.send(message))
        else gateway.send(message)
      })
    })
    const heard = await heardPolitely(page)
    const firstLook = page.waitForResponse((response) => response.url().includes('/api/user/notices'))
    await pages.go(page, '/wallet')
    await firstLook
    await expect.poll(() => page.getByTestId('wallet-total').textContent()).toBe('2,580.00')
    await expect.poll(() => held.length).toBeGreaterThan(0)
    // between the two: no stream carries it yet, and the page has already looked
    await suite.stack.control('/sandbox/deposit', { username, coin: 'usdt', amount: '7' })
    holding = false
    for (const send of held.splice(0)) send()
    const arrived = (amount: string) =>
      english.balances.depositArrived!.replace('{{amount}}', amount).replace('{{coin}}', 'USDT')
    await expect.poll(heard).toContain(arrived('7.00'))
    await expect.poll(() => page.getByTestId('wallet-total').textContent()).toBe('2,587.00')
    // told once and as news, not as missed; the funding, from before the page opened, never read out
    expect((await heard()).filter((message) => message.includes('USDT'))).toEqual([arrived('7.00')])
    // and nothing read out on this English page was in another language (the loading toast was once Chinese)
    expect((await heard()).filter((message) => /\p{Script=Han}/u.test(message))).toEqual([])
    // the bell counts what the user was told and has not read; the centre lists the funding as read
    await page.getByTestId('notification-bell').click()
    const rows = page.getByTestId('notice-row')
    await expect.poll(() => rows.count()).toBe(2)
    const told = rows.filter({ hasText: '+7.00 USDT' })
    const funding = rows.filter({ hasText: '+2,500.00 USDT' })
    expect(await told.getAttribute('data-read')).toBe('false')
    expect(await funding.getAttribute('data-read')).toBe('true')
    expect(await told.textContent()).not.toContain(english.notices.missed)
    expect(await page.getByTestId('notification-count').textContent()).toBe('1')
    await page.screenshot({ path: screenshotPath('phone-money-deposit-during-load') })
  })

  it("tells a deposit made while the page's first look at the user's events was on its way, as news", async () => {
    const { email: username, token } = await createFundedUser(suite.stack)
    const page = await pages.open(PHONE, token)
    // the first look leaves the page at once but reaches the gateway only when released, so the
    // deposit lands after the page began to listen and before the look is answered, and is in its list
    let release = () => {}
    const released = new Promise<void>((done) => (release = done))
    let looks = 0
    await page.route('**/api/user/notices*', async (route) => {
      if (looks++ === 0) await released
      await route.continue()
    })
    const heard = await heardPolitely(page)
    await pages.go(page, '/wallet')
    await expect.poll(() => looks).toBeGreaterThan(0)
    await suite.stack.control('/sandbox/deposit', { username, coin: 'usdt', amount: '9' })
    release()
    const arrived = english.balances.depositArrived!.replace('{{amount}}', '9.00').replace('{{coin}}', 'USDT')
    await expect.poll(heard).toContain(arrived)
    await expect.poll(() => page.getByTestId('wallet-total').textContent()).toBe('2,589.00')
    // told once, as news; the funding from before the page opened is listed read and never read out
    expect((await heard()).filter((message) => message.includes('USDT'))).toEqual([arrived])
    await page.getByTestId('notification-bell').click()
    const rows = page.getByTestId('notice-row')
    await expect.poll(() => rows.count()).toBe(2)
    const told = rows.filter({ hasText: '+9.00 USDT' })
    expect(await told.getAttribute('data-read')).toBe('false')
    expect(await told.textContent()).not.toContain(english.notices.missed)
    expect(await rows.filter({ hasText: '+2,500.00 USDT' }).getAttribute('data-read')).toBe('true')
    expect(await page.getByTestId('notification-count').textContent()).toBe('1')
  })

  /** A device whose clock is `offsetMs` off the exchange's, with no market frame to correct it: its socket is refused. */
  async function onSkewedDevice(page: Page, offsetMs: number): Promise<void> {
    await page.addInitScript((offset) => {
      const deviceNow = Date.now.bind(Date)
      Date.now = () => deviceNow() + offset
    }, offsetMs)
    await page.routeWebSocket(/\/ws\//, (socket) => socket.close())
  }
  const FIVE_MINUTES = 5 * 60_000
  /** A Date header counts whole seconds: an event further than that from the page's start is on one side of it. */
  const DATE_RESOLUTION_MS = 1000
  const passed = (since: number) => () => Date.now() - since

  it('lists an event from before the page opened as read on a device five minutes behind, before any market frame', async () => {
    const { token } = await createFundedUser(suite.stack)
    const fundedAt = Date.now()
    await expect.poll(passed(fundedAt)).toBeGreaterThan(DATE_RESOLUTION_MS)
    const page = await pages.open(PHONE, token)
    await onSkewedDevice(page, -FIVE_MINUTES)
    const heard = await heardPolitely(page)
    await pages.go(page, '/wallet')
    await expect.poll(() => page.getByTestId('wallet-total').textContent()).toBe('2,580.00')
    await page.getByTestId('notification-bell').click()
    const rows = page.getByTestId('notice-row')
    await expect.poll(() => rows.count()).toBe(1)
    // the funding is what the first figures show: listed, read, and never read out as news
    expect(await rows.first().getAttribute('data-read')).toBe('true')
    expect((await heard()).filter((message) => message.includes('USDT'))).toEqual([])
    expect(await page.getByTestId('notification-count').count()).toBe(0)
  })

  it('tells a deposit made during the first look on a device five minutes ahead, before any market frame', async () => {
    const { email: username, token } = await createFundedUser(suite.stack)
    const page = await pages.open(PHONE, token)
    await onSkewedDevice(page, FIVE_MINUTES)
    let release = () => {}
    const released = new Promise<void>((done) => (release = done))
    let looks = 0
    let firstLookAt = 0
    await page.route('**/api/user/notices*', async (route) => {
      if (looks++ === 0) {
        firstLookAt = Date.now()
        await released
      }
      await route.continue()
    })
    const heard = await heardPolitely(page)
    await pages.go(page, '/wallet')
    await expect.poll(() => looks).toBeGreaterThan(0)
    // well after the page started, on any clock
    await expect.poll(passed(firstLookAt)).toBeGreaterThan(DATE_RESOLUTION_MS)
    await suite.stack.control('/sandbox/deposit', { username, coin: 'usdt', amount: '9' })
    release()
    const arrived = english.balances.depositArrived!.replace('{{amount}}', '9.00').replace('{{coin}}', 'USDT')
    await expect.poll(heard).toContain(arrived)
    expect((await heard()).filter((message) => message.includes('USDT'))).toEqual([arrived])
    await page.getByTestId('notification-bell').click()
    const rows = page.getByTestId('notice-row')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.filter({ hasText: '+9.00 USDT' }).getAttribute('data-read')).toBe('false')
    expect(await rows.filter({ hasText: '+2,500.00 USDT' }).getAttribute('data-read')).toBe('true')
  })

  it('marks balances stale while the socket is down and fetches them again once it is back', async () => {
    const { email: username, token } = await createFundedUser(suite.stack)
    const { page, events } = await openScreen(token, '/assets')
    const heard = await heardPolitely(page)
    const available = page.getByTestId('balances').locator('.list-row-end .list-row-main').first()
    await expect.poll(() => available.textContent()).toContain('2,580.00')
    await depositWhileSubscribed(username, events, '1')
    await expect.poll(() => available.textContent()).not.toContain('2,580.00')
    const before = await available.textContent()
    // the gateway stays out of reach until the deposit is made: the client retries within a second
    suite.stack.relay.refuse(true)
    try {
      suite.stack.relay.cutAll()
      await page.getByTestId('balances-stale').waitFor()
      expect(await page.getByTestId('balances-stale').textContent()).toBe(english.balances.stale)
      // a deposit made while the socket is down: its event is missed, so only the refetch can show it
      await suite.stack.control('/sandbox/deposit', { username, coin: 'usdt', amount: '20' })
    } finally {
      suite.stack.relay.refuse(false)
    }
    await page.getByTestId('balances-stale').waitFor({ state: 'detached', timeout: RECONNECT_WAIT_MS })
    await expect.poll(() => available.textContent()).not.toBe(before)
    // the deposit made during the gap is announced once the resync finds it, marked as missed
    const missed = english.notices.missedOne!.replace(
      '{{text}}',
      english.balances.depositArrived!.replace('{{amount}}', '20.00').replace('{{coin}}', 'USDT'),
    )
    await expect
      .poll(async () => (await heard()).filter((message) => message.includes(missed)))
      .toHaveLength(1)
    await page.screenshot({ path: screenshotPath('phone-money-missed-deposit') })
    await page.getByTestId('notification-bell').click()
    const row = page.getByTestId('notice-row').filter({ hasText: '+20.00 USDT' })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain(english.notices.missed)
  })
})

const TRON = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'
const ETHEREUM = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('one number rule', () => {
  it("shows, fills Max and accepts a coin's amounts at its precision only", async () => {
    const { email, token } = await createFundedUser(suite.stack)
    await suite.stack.control('/sandbox/deposit', {
      username: email,
      coin: 'btc',
      amount: '0.12345678',
    })
    const { page } = await openScreen(token, '/transfer')
    await page.locator('select[name=coin]').selectOption('btc')
    // BTC is counted in the coin list's 5 places: shown, filled and typed at 5, never more
    await expect.poll(() => page.getByTestId('transfer-available').textContent()).toBe('0.12345 BTC')
    await page.getByTestId('transfer-max').click()
    expect(await page.locator('input[name=amount]').inputValue()).toBe('0.12345')
    // a finer amount is refused whole, with the reason, never cut to digits the user did not type
    const fieldError = page
      .locator('.field', { has: page.locator('input[name=amount]') })
      .getByTestId('field-error')
    await page.locator('input[name=amount]').fill('0.000000001')
    await expect
      .poll(() => fieldError.textContent())
      .toBe('BTC is counted to 5 decimal places; the digits past them were not taken.')
    expect(await page.locator('input[name=amount]').inputValue()).toBe('0.12345')
    expect(await page.locator('input[name=amount]').getAttribute('aria-describedby')).toBe(
      await fieldError.getAttribute('id'),
    )
    await page.locator('input[name=amount]').fill('0.00001')
    await expect.poll(() => fieldError.textContent()).toBe('')
    await page.locator('input[name=amount]').fill('123456789012345678901')
    await expect.poll(() => fieldError.textContent()).toContain('at most 20 digits')
    expect(await page.locator('input[name=amount]').inputValue()).toBe('0.00001')
  })

  it('writes every number of a screen with the decimal marks of the language', async () => {
    const token = await createFundedAccount(suite.stack)
    const { page } = await openScreen(token, '/withdraw', 'de')
    await expect.poll(() => page.getByTestId('withdraw-available').textContent()).toBe('2.580,00 USDT')
    expect(await page.getByTestId('withdraw-limits').textContent()).toMatch(
      /^\d+(,\d+)? – [\d.]+(,\d+)? USDT$/,
    )
    expect(await page.getByTestId('withdraw-fee').textContent()).toBe('0,00 USDT')
    // the wallet's prices and values too: "Preis 1,000000", never "1.000000" read as a million
    await pages.go(page, '/wallet')
    await expect.poll(() => page.getByTestId('coin-price').first().textContent()).toBe('1,000000')
    expect(await page.getByTestId('coin-value').first().textContent()).toBe('2.580,00')
  })
})

describe('withdrawals', () => {
  it('checks the address for the network, picks from the address book and confirms before sending', async () => {
    await withWithdrawalsAllDay(suite.stack, async () => {
      const user = await createFundedUser(suite.stack)
      const { token } = user
      await setFundPassword(suite.stack, user, 'fund-pass-1')
      const { page } = await openScreen(token, '/address-book')
      const sent: string[] = []
      page.on('request', (request) => {
        if (request.url().includes('/api/withdraw/submit')) sent.push(request.url())
      })
      // the address book on its own: add a labelled TRC20 address, refused for an Ethereum one
      await page.locator('input[name=label]').fill('Cold wallet')
      await page.locator('input[name=address]').fill(ETHEREUM)
      await page.getByTestId('address-add').locator('button[type=submit]').click()
      // the refusal is the field's error, tied to it
      await page
        .getByTestId('field-error')
        .filter({ hasText: english.errors.addressNotForNetwork! })
        .waitFor()
      expect(await page.locator('input[name=address]').getAttribute('aria-invalid')).toBe('true')
      await page.locator('input[name=address]').fill(TRON)
      await page.getByTestId('address-add').locator('button[type=submit]').click()
      await expect
        .poll(() => page.getByTestId('address-entry').allTextContents())
        .toEqual([`Cold wallet · TRC20${TRON}${english.withdrawal.remove}`])
      await page.screenshot({ path: screenshotPath('phone-money-address-book') })

      await pages.go(page, '/withdraw')
      await page.locator('input[name=address]').fill(ETHEREUM)
      await page.locator('input[name=amount]').fill('100')
      await page.locator('input[name=pwd]').fill('fund-pass-1')
      await page.locator('form button[type=submit]').click()
      await page
        .getByTestId('field-error')
        .filter({ hasText: english.errors.addressNotForNetwork! })
        .waitFor()
      expect(await page.locator('input[name=address]').getAttribute('aria-invalid')).toBe('true')
      expect(sent).toEqual([])

      await page.getByTestId('book-entry').filter({ hasText: 'Cold wallet' }).click()
      expect(await page.locator('input[name=address]').inputValue()).toBe(TRON)
      await page.locator('form button[type=submit]').click()
      const confirm = page.getByTestId('withdraw-confirm')
      await confirm.waitFor()
      expect(await confirm.getByTestId('confirm-amount').textContent()).toBe('100.00 USDT')
      expect(await confirm.getByTestId('confirm-fee').textContent()).toBe('10.00 USDT')
      expect(await confirm.getByTestId('confirm-receive').textContent()).toBe('90.00 USDT')
      expect(await confirm.getByTestId('confirm-network').textContent()).toBe('TRC20')
      expect(await confirm.getByTestId('confirm-address').textContent()).toBe(TRON)
      await page.screenshot({ path: screenshotPath('phone-money-withdraw-confirm') })
      expect(sent).toEqual([])
      await page.getByTestId('withdraw-confirm-submit').click()
      await expect.poll(() => sent.length).toBe(1)
      expect(sent[0]).toContain(`address=${TRON}`)

      // a network that needs a tag asks for one
      await page.locator('.chips button', { hasText: 'XRP-XRP' }).click()
      await page.locator('input[name=memo]').waitFor()
      // and a link that names the coin opens on it
      await pages.go(page, '/wallet')
      await pages.go(page, '/withdraw?coin=xrp')
      await expect
        .poll(() => page.locator('.chips button[aria-pressed=true]').first().textContent())
        .toBe('XRP-XRP')
      await page.locator('input[name=memo]').waitFor()
      // the deposit screen too, its chip brought into view at the row's far end on a phone
      await pages.go(page, '/recharge?coin=xrp')
      const depositChip = page.locator('.chips button[aria-pressed=true]')
      await expect.poll(() => depositChip.textContent()).toBe('XRP-XRP')
      await expect
        .poll(async () => {
          const box = await depositChip.boundingBox()
          return box !== null && box.x >= 0 && box.x + box.width <= page.viewportSize()!.width
        })
        .toBe(true)

      // removing an address asks first: Back keeps it, Confirm removes it
      await pages.go(page, '/address-book')
      const entry = page.getByTestId('address-entry')
      const dialog = page.getByRole('dialog')
      await entry.locator('button', { hasText: english.withdrawal.remove }).click()
      expect(await dialog.textContent()).toContain('Remove “Cold wallet” from the address book?')
      await dialog.locator('button', { hasText: 'Back' }).click()
      await dialog.waitFor({ state: 'detached' })
      expect(await entry.count()).toBe(1)
      await entry.locator('button', { hasText: english.withdrawal.remove }).click()
      await page.getByTestId('address-remove-confirm').click()
      await expect.poll(() => entry.count()).toBe(0)
      expect(suite.stack.apiRequests.filter((url) => url.includes('/addressBook/remove'))).toHaveLength(1)
    })
  })
})

describe('savings', () => {
  it('shows minimum, available, expected interest and maturity, then redeems a holding by its rule', async () => {
    const token = await createFundedAccount(suite.stack)
    const { page } = await openScreen(token, '/subscribe/2')
    await expect.poll(() => page.getByTestId('subscribe-available').textContent()).toBe('2,580.00 USDT')
    expect(await page.getByTestId('subscribe-limits').textContent()).toBe('100.00 – 500,000.00 USDT')
    await page.locator('input[name=amount]').fill('200')
    // 200 × 0.15% a day × 30 days
    expect(await page.getByTestId('subscribe-interest').textContent()).toBe('9.00 USDT')
    // the month by name and the zone whose day it is: never a numeric date a reader could misread
    expect(await page.getByTestId('subscribe-maturity').textContent()).toMatch(
      /^[A-Z][a-z]{2} \d{1,2}, \d{4} UTC\+8$/,
    )
    const subscribed = () =>
      suite.stack.apiRequests.filter((url) => url.includes('/finance/subscribe')).length
    await page.locator('form button[type=submit]').click()
    // the money is locked for the term: the figures once more, and nothing sent before Subscribe
    const confirm = page.getByTestId('subscribe-confirm')
    await confirm.waitFor()
    expect(await confirm.getByTestId('subscribe-amount').textContent()).toBe('200.00 USDT')
    expect(await confirm.getByTestId('subscribe-interest').textContent()).toBe('9.00 USDT')
    expect(subscribed()).toBe(0)
    await confirm.locator('button', { hasText: 'Back' }).click()
    expect(await page.locator('input[name=amount]').inputValue()).toBe('200')
    await page.locator('form button[type=submit]').click()
    await page.getByTestId('subscribe-confirm-submit').click()
    await expect.poll(() => page.getByTestId('subscribe-available').textContent()).toBe('2,380.00 USDT')
    expect(subscribed()).toBe(1)

    await pages.go(page, '/finance/holdings')
    const holding = page.getByTestId('holding').first()
    await holding.waitFor()
    expect(await holding.getAttribute('data-status')).toBe('running')
    await holding.getByTestId('redeem').click()
    expect(await holding.getByTestId('redeem-penalty').textContent()).toBe('2.00 USDT')
    expect(await holding.getByTestId('redeem-receive').textContent()).toBe('198.00 USDT')
    await page.screenshot({ path: screenshotPath('phone-money-redeem') })
    await holding.getByTestId('redeem-confirm').click()
    await expect.poll(() => holding.getAttribute('data-status')).toBe('redeeming')
  })
})

describe('account', () => {
  it('says what each identity level unlocks and how long review takes', async () => {
    const token = await createFundedAccount(suite.stack)
    const { page } = await openScreen(token, '/userauth')
    await page.getByTestId('kyc-review-time').waitFor()
    expect(await page.getByTestId('kyc-review-time').textContent()).toBe(english.kycInfo.reviewTime)
    const levels = await page.locator('.list').first().textContent()
    expect(levels).toContain(english.kycInfo.primary)
    expect(levels).toContain(english.kycInfo.advanced)
  })

  it('asks before signing out from the desktop sidebar, and stays signed in when told to', async () => {
    const token = await createFundedAccount(suite.stack)
    const page = await pages.open(DESKTOP, token)
    await pages.go(page, '/wallet')
    await page.getByTestId('sidebar-sign-out').click()
    await page.getByTestId('sign-out-confirm').waitFor()
    expect(await page.evaluate("localStorage.getItem('_token')")).toBe(token)
    await page.getByTestId('sign-out-confirm').getByRole('button', { name: english.signOut.stay! }).click()
    await page.getByTestId('sidebar-sign-out').click()
    await page.getByTestId('sign-out-confirmed').click()
    await page.waitForFunction(() => localStorage.getItem('_token') === null)
  })
})
