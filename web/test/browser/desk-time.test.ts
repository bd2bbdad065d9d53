import { describe, expect, it, vi } from 'vitest'
import { DESKTOP, PHONE, createFundedAccount, postApi, screenshotPath } from './stack'
import { setUpSuite, signedInPages } from './suite'

// Time on the desk against the real gateway and sandbox: every time carries its zone and follows
// the zone the user picks; a second contract's countdown runs on the exchange's clock, whatever
// the device's clock says.

vi.setConfig({ testTimeout: 240_000 })
const suite = setUpSuite()
const { open: openPage, go } = signedInPages(suite)

/** "11/26/2026 12:18:32 UTC+8" -> [12, 'UTC+8'] */
function hourAndZone(text: string | null): [number, string] {
  const match = /(\d\d):\d\d:\d\d (UTC\S*)/.exec(text ?? '')
  return [Number(match?.[1]), match?.[2] ?? '']
}

describe('time zone', () => {
  it('times carry their zone, +8 until the user picks another in the language and zone settings', async () => {
    const account = await createFundedAccount(suite.stack)
    await postApi(
      suite.stack,
      '/api/currency/order/submit',
      { symbol: 'ethusdt', side: 'buy', type: 'market', amount: '0.1' },
      account,
    )
    const page = await openPage(DESKTOP, account)
    await go(page, '/trade?id=1&componentName=3&symbol=ethusdt')
    await page.getByTestId('spot-history-tab').click()
    const time = page.getByTestId('spot-history').locator('tr[data-order-status=filled] td').first()
    await time.waitFor()
    const [hourAtEight, zoneAtEight] = hourAndZone(await time.textContent())
    expect(zoneAtEight).toBe('UTC+8')
    await page.getByTestId('trades-tab').click()
    expect(await page.getByTestId('recent-trades').locator('th').last().textContent()).toBe('Time (UTC+8)')

    await go(page, '/langList')
    const picker = page.getByTestId('time-zone')
    expect(await picker.inputValue()).toBe('Asia/Hong_Kong')
    // the list is the settings' 38 zones
    expect(await picker.locator('option').count()).toBe(38)
    await picker.selectOption('Europe/London')
    await expect.poll(() => page.locator('.time-zone-picker').textContent()).toContain('shown in UTC')
    await page.screenshot({ path: screenshotPath('desk-time-zone-desktop') })

    // the same order, eight hours earlier on the clock and labelled so; kept after a reload
    await go(page, '/trade?id=1&componentName=3&symbol=ethusdt')
    await page.reload()
    await page.getByTestId('spot-history-tab').click()
    await time.waitFor()
    const [hourInLondon, zoneInLondon] = hourAndZone(await time.textContent())
    expect(zoneInLondon).toMatch(/^UTC(\+1)?$/)
    const shift = zoneInLondon === 'UTC' ? 8 : 7
    expect((hourAtEight - hourInLondon + 24) % 24).toBe(shift)
    await page.getByTestId('trades-tab').click()
    expect(await page.getByTestId('recent-trades').locator('th').last().textContent()).toBe(
      `Time (${zoneInLondon})`,
    )
  })
})

describe.each([PHONE, DESKTOP])('server time at %o', (viewport) => {
  it('a second contract counts down on the exchange clock when the device clock is an hour behind', async () => {
    const account = await createFundedAccount(suite.stack)
    const hour = 3_600_000
    const page = await openPage(viewport, account, (context) =>
      context.clock.install({ time: Date.now() - hour }),
    )
    await go(page, '/trade?id=1&componentName=1&symbol=btcusdt')
    const first = page.locator('[data-period]').first()
    await first.click()
    const periodSeconds = Number(await first.getAttribute('data-period'))
    await page.locator('#order-amount').fill('20')
    // the feed has stamped a frame or two, so the page knows the exchange's clock
    await expect.poll(() => page.getByTestId('feed-status').getAttribute('data-status')).toBe('live')
    await page.getByTestId('second-up').click()
    const countdown = page.getByTestId('second-countdown').first()
    await countdown.waitFor()
    // the device clock would say an hour and the period; the exchange's says at most the period
    const left = Number(await countdown.getAttribute('data-seconds'))
    expect(left).toBeGreaterThan(0)
    expect(left).toBeLessThanOrEqual(periodSeconds)
    await page.screenshot({
      path: screenshotPath(`desk-server-countdown-${viewport === PHONE ? 'phone' : 'desktop'}`),
    })
  })
})
