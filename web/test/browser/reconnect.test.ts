import type { AddressInfo } from 'node:net'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { DESKTOP, PHONE, createFundedUser, startRelay, type Relay } from './stack'
import { heardPolitely } from './heard'
import { RECONNECT_WAIT_MS, readLocale, setUpSuite, signedInPages } from './suite'

// The live socket when the network fails: two pages that lose the gateway together, each behind its
// own relay that counts the socket upgrades it sees, and a deposit made while a page's socket is cut.
// The pages' clocks are Playwright's, so a minute of back-off takes seconds; every wait is on a count
// or an attribute, never on a fixed sleep.

const suite = setUpSuite()
const signedIn = signedInPages(suite)
const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** How long the gateway stays away, in the pages' time; the back-off is judged on its first 30 s. */
const OUTAGE_MS = 60_000
const WINDOW_MS = 30_000

interface Watched {
  page: Page
  context: BrowserContext
  relay: Relay
  badge: Locator
}

/** The home screen in a fresh browser behind a relay of its own, with Playwright's clock, once live. */
async function openBehindRelay(): Promise<Watched> {
  const relay = await startRelay((suite.stack.gateway.server.address() as AddressInfo).port)
  const context = await suite.browser.newContext({ viewport: DESKTOP })
  cleanups.push(
    () => relay.close(),
    () => context.close(),
  )
  await context.clock.install()
  const page = await context.newPage()
  await page.goto(`http://127.0.0.1:${relay.port}/#/`)
  const badge = page.getByTestId('feed-status')
  await expect.poll(() => badge.getAttribute('data-status')).toBe('live')
  return { page, context, relay, badge }
}

/** Waits until the badge shows a wait for a retry later than `previous`; returns its number and time. */
async function nextRetry(badge: Locator, previous: number): Promise<{ retry: number; at: number }> {
  await expect.poll(async () => Number(await badge.getAttribute('data-retry'))).toBeGreaterThan(previous)
  return {
    retry: Number(await badge.getAttribute('data-retry')),
    at: Number(await badge.getAttribute('data-retry-at')),
  }
}

/**
 * Plays one page's outage: moves its clock to each retry the client scheduled, waits for the relay
 * to see that socket and for the client to schedule the next. Returns each retry's time after `from`.
 */
async function retriesDuringOutage({ page, relay, badge }: Watched, from: number): Promise<number[]> {
  const times: number[] = []
  let next = await nextRetry(badge, 0)
  while (next.at - from <= OUTAGE_MS) {
    const seen = relay.socketAttempts
    const now = Number(await page.evaluate('Date.now()'))
    await page.clock.runFor(Math.max(0, next.at - now))
    times.push(next.at - from)
    await expect.poll(() => relay.socketAttempts).toBe(seen + 1)
    next = await nextRetry(badge, next.retry)
  }
  return times
}

describe('the live socket on a failing network', () => {
  it('two pages that lose the gateway together retry at different moments, and less and less often', async () => {
    const pages = [await openBehindRelay(), await openBehindRelay()]
    // both clocks stop at the same moment; from here each page's time moves only when the test says
    const stoppedAt = Date.now() + 5000
    for (const { page } of pages) await page.clock.pauseAt(stoppedAt)
    // the pages' first sockets went through their relays too
    const before = pages.map(({ relay }) => relay.socketAttempts)
    for (const { relay } of pages) {
      relay.refuse(true)
      relay.cutAll()
    }
    const [first, second] = [
      await retriesDuringOutage(pages[0]!, stoppedAt),
      await retriesDuringOutage(pages[1]!, stoppedAt),
    ]
    for (const [index, times] of [first, second].entries()) {
      expect(pages[index]!.relay.socketAttempts - before[index]!).toBe(times.length)
      const inWindow = times.filter((time) => time <= WINDOW_MS).length
      expect(inWindow).toBeGreaterThanOrEqual(3)
      expect(inWindow).toBeLessThanOrEqual(8)
    }
    const pairs = Math.min(first.length, second.length)
    const gaps = first.slice(0, pairs).map((time, index) => Math.abs(time - second[index]!))
    const meanGap = gaps.reduce((sum, gap) => sum + gap, 0) / pairs
    expect(meanGap).toBeGreaterThanOrEqual(300)

    // the gateway is back and the browser says it is online again: the page tries at once, without
    // waiting out its back-off (its clock stays stopped)
    const { page, context, relay, badge } = pages[0]!
    relay.refuse(false)
    await context.setOffline(true)
    await expect.poll(() => badge.getAttribute('data-socket')).toBe('offline')
    const pendingRetry = Number(await badge.getAttribute('data-retry-at'))
    await context.setOffline(false)
    await expect.poll(() => badge.getAttribute('data-socket')).toBe('open')
    expect(Number(await page.evaluate('Date.now()'))).toBeLessThan(pendingRetry)
  })

  it('shows a deposit made while the socket was cut on the open wallet once it reconnects, and tells it as missed', async () => {
    const { stack } = suite
    const { email, token } = await createFundedUser(stack)
    const page = await signedIn.open(PHONE, token)
    const closedSockets: string[] = []
    const openedSockets: string[] = []
    page.on('websocket', (socket) => {
      openedSockets.push(socket.url())
      socket.on('close', () => closedSockets.push(socket.url()))
    })
    await signedIn.go(page, '/wallet')
    const heard = await heardPolitely(page)
    const usdt = page.locator('[data-coin=usdt] [data-testid=coin-amount]')
    const shown = async () => Number(((await usdt.textContent()) ?? '').replaceAll(',', ''))
    // the deposit of 2500 and the registration credit
    await expect.poll(shown).toBeGreaterThanOrEqual(2500)
    const held = await shown()
    await expect.poll(() => openedSockets.length).toBe(1)

    stack.relay.refuse(true)
    cleanups.push(async () => stack.relay.refuse(false))
    stack.relay.cutAll()
    // at least the cut one: refused retries may have opened and closed more by the time this looks
    await expect.poll(() => closedSockets.length).toBeGreaterThanOrEqual(1)
    await stack.control('/sandbox/deposit', { username: email, coin: 'usdt', amount: '125' })
    // the screen still shows what it had: the socket that would have told it is gone
    expect(await shown()).toBe(held)

    stack.relay.refuse(false)
    await expect.poll(shown, { timeout: RECONNECT_WAIT_MS }).toBe(held + 125)
    expect(await page.evaluate('window.location.hash')).toBe('#/wallet')
    expect(openedSockets.length).toBeGreaterThanOrEqual(2)
    // the deposit's event, which no frame brought, is found by the lookup after the gap and told as
    // missed, by a notice and in the notification centre
    const { notices } = readLocale<{ notices: { missed: string } }>('en')
    await expect
      .poll(async () => (await heard()).find((text) => text.startsWith(`${notices.missed}: `)))
      .toMatch(/\b125\b.*USDT/)
    await page.getByTestId('notification-bell').click()
    const row = page.getByTestId('notice-row').filter({ hasText: notices.missed })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.getAttribute('data-kind')).toBe('deposit')
  })
})
