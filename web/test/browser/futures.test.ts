import type { Page } from 'playwright-core'
import { describe, expect, it, vi } from 'vitest'
import { PHONE, createContractAccount, inLanguage, screenshotPath } from './stack'
import { setUpSuite, signedInPages } from './suite'
import { cutControls, cutTexts } from './cut-texts'

// The futures desk as a trader uses it, on a phone, against the real gateway and sandbox: the mark
// price labelled beside index and last with the funding countdown, two fills joining one position,
// leverage by slider, a stop order placed and triggered by the market, and amending a resting order.

vi.setConfig({ testTimeout: 240_000 })
const suite = setUpSuite()
const pages = signedInPages(suite)
const SYMBOL = 'btcusdt'

/** "67,250.00 USDT" -> 67250 */
function numberIn(text: string | null): number {
  return Number((text ?? '').replace(/[^\d.-]/g, ''))
}

async function futuresDesk(language = 'en'): Promise<Page> {
  const account = await createContractAccount(suite.stack, '1000')
  const page = await pages.open(PHONE, account, inLanguage(language))
  await pages.go(page, `/trade?id=1&componentName=2&symbol=${SYMBOL}`)
  await page.getByTestId('contract-available').waitFor()
  return page
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
      await page.getByTestId('futures-stats').waitFor()
      await page.waitForFunction((code) => document.documentElement.lang === code, language)
      for (const kind of ['limit', 'stopLimit'] as const) {
        await page.locator('#order-contract-type').selectOption(kind)
        const form = page.getByTestId('contract-form')
        const cut = [...(await cutTexts(page)), ...(await cutControls(page, language))]
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
