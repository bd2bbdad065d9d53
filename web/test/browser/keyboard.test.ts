import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeViolations } from './axe'
import { heardPolitely } from './heard'
import {
  DESKTOP,
  createContractAccount,
  createFundedUser,
  inLanguage,
  postApi,
  setFundPassword,
} from './stack'
import { readLocale, setUpSuite, signedInPages } from './suite'

// The five main tasks done with the keyboard alone, in English and in Arabic: after each step, where
// focus is (its role and name, as a screen reader says it) and what is read out (the polite region,
// or the outcome that took focus). Every field error on the way is tied to its field, and axe
// finds nothing.

interface Bundle {
  errors: Record<string, string>
  trade: Record<string, string>
  desk: Record<string, string>
  money: { transfer: Record<string, string> }
  withdrawal: Record<string, string>
  exchange: Record<string, string>
  wallet: Record<string, string>
  language: Record<string, string>
  auth: Record<string, string>
}

const LANGUAGES = ['en', 'ar'] as const
const bundles: Record<string, Bundle> = { en: readLocale('en'), ar: readLocale('ar') }
const FUND_PASSWORD = 'fund-pass-7'

const suite = setUpSuite()
const pages = signedInPages(suite)

async function signedIn(
  language: string,
  usdt = '2500',
): Promise<{ page: Page; email: string; token: string }> {
  const user = await createFundedUser(suite.stack, usdt)
  const page = await pages.open(DESKTOP, user.token, inLanguage(language))
  return { page, ...user }
}

/**
 * The focused element as the accessibility tree gives it to a screen reader: its role and name, e.g.
 * `heading "Transfer"`, or its role and text for an element without a name (an outcome).
 */
async function focused(page: Page): Promise<string> {
  if (await page.evaluate(() => document.activeElement === document.body || !document.activeElement))
    return 'body'
  // the first line of the snapshot, e.g. `- heading "Transfer"`, `- 'button "Pair: BTC/USDT"':`
  const line = (await page.locator(':focus').ariaSnapshot()).split('\n')[0] ?? ''
  const unquoted = line
    .replace(/^- /, '')
    .replace(/:$/, '')
    .replace(/^'(.*)'$/, '$1')
  return unquoted.replace(/ \[[^\]]*\]/g, '')
}

/** Presses Tab (Shift+Tab when `back`) until focus is on an element matching `selector`. */
async function tabTo(page: Page, selector: string, back = false): Promise<void> {
  for (let presses = 0; presses < 120; presses++) {
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
  }
  throw new Error(`Tab never reached ${selector}; focus is on ${await focused(page)}`)
}

/** Selects the focused field's text and types over it. */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type(text)
}

/** The error a field is tied to: aria-invalid and the text of what aria-describedby names. */
async function fieldError(page: Page, selector: string): Promise<{ invalid: string | null; said: string }> {
  return page.locator(selector).evaluate((field) => ({
    invalid: field.getAttribute('aria-invalid'),
    said: (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id: string) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join(' ')
      .trim(),
  }))
}

/** Whether the described element sits in a polite live region (its own or an ancestor's). */
async function describedPolitely(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((field) => {
    const id = field.getAttribute('aria-describedby')?.split(' ')[0]
    const message = id ? document.getElementById(id) : null
    return message?.closest('[aria-live=polite]') !== null && message !== null
  })
}

/** What the always-present polite region reads out now. */
function politeRegion(page: Page): Promise<string> {
  return page
    .getByTestId('live-toasts')
    .textContent()
    .then((text) => text ?? '')
}

/** The part of a message before its first placeholder, to match a text with a number put in. */
function lead(message: string): string {
  return message.split('{{')[0]!.trim()
}

/** axe finds nothing on the page, or, while a modal dialog is open, in the dialog (all that can be reached). */
async function expectNoAxeViolations(page: Page): Promise<void> {
  const modal = (await page.locator('[role=dialog][aria-modal=true]').count()) > 0
  expect(await axeViolations(page, modal ? '[role=dialog][aria-modal=true]' : 'html')).toEqual([])
}

/** Every live region on the page that sits inside another: some screen readers read those twice. */
function nestedLiveRegions(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      [...document.querySelectorAll('[aria-live], [role=status], [role=alert]')].filter(
        (region) =>
          region.parentElement?.closest('[aria-live], [role=status], [role=alert]') !== null &&
          region.parentElement !== null,
      ).length,
  )
}

for (const language of LANGUAGES) {
  const text = bundles[language]!
  describe(`by keyboard alone (${language})`, () => {
    it('spot: a spot link opens spot, the pair picker by arrows, an order placed and cancelled', async () => {
      const { page } = await signedIn(language)
      await pages.go(page, '/')
      await tabTo(page, '[data-testid=home-coin-eth]')
      await page.keyboard.press('Enter')
      // a link to a spot pair opens the spot tab, not the first tab of the settings
      await page.locator('.trade-screen[data-tab=BBTrading]').waitFor()
      await page.getByTestId('spot-form').waitFor()

      // the pair picker: a combobox whose list the arrow keys walk; Escape gives focus back
      await tabTo(page, '[data-testid=pair-picker]')
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toMatch(/^combobox/)
      const search = page.getByTestId('pair-search')
      const activeSymbol = () =>
        search.evaluate((input) => {
          const id = input.getAttribute('aria-activedescendant')
          return id ? document.getElementById(id)?.getAttribute('data-symbol') : null
        })
      expect(await activeSymbol()).toBe('ethusdt')
      await page.keyboard.press('ArrowDown')
      const next = await activeSymbol()
      expect(next).not.toBe('ethusdt')
      await page.keyboard.press('ArrowUp')
      expect(await activeSymbol()).toBe('ethusdt')
      await page.keyboard.press('Escape')
      expect(await page.getByTestId('pair-list').count()).toBe(0)
      expect(await focused(page)).toBe(`button "${text.trade.pair}: ETH/USDT"`)
      expect(await page.getByTestId('pair-picker').getAttribute('aria-expanded')).toBe('false')
      // Enter chooses the highlighted pair and focus is back on the picker, which names it
      await page.keyboard.press('Enter')
      await page.keyboard.type('sol')
      await expect.poll(activeSymbol).toBe('solusdt')
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toBe(`button "${text.trade.pair}: SOL/USDT"`)
      expect(page.url()).toContain('symbol=solusdt')

      // a limit buy: an amount over the balance is an error tied to the field, read out politely
      await tabTo(page, '[data-choice=limit]')
      await page.keyboard.press('Enter')
      expect(await page.locator('[data-choice=limit]').getAttribute('aria-pressed')).toBe('true')
      await tabTo(page, '#order-price')
      await page.keyboard.type('100')
      await tabTo(page, '#order-amount')
      // nothing typed yet: the disabled Buy says why
      expect(await fieldError(page, '[data-testid=spot-submit]')).toEqual({
        invalid: null,
        said: text.errors.amountMustBePositive,
      })
      await page.keyboard.type('1000')
      await expect
        .poll(() => fieldError(page, '#order-amount'))
        .toEqual({ invalid: 'true', said: text.errors.insufficientBalance })
      expect(await describedPolitely(page, '#order-amount')).toBe(true)
      await retype(page, '1')
      await expect.poll(() => fieldError(page, '#order-amount')).toEqual({ invalid: null, said: '' })
      // the Buy button, enabled now, in its colours
      await expectNoAxeViolations(page)

      // Enter sends it; focus goes to the outcome, and Escape back to where the order was sent from
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toContain(text.trade.orderPlaced)
      await page.keyboard.press('Escape')
      await expect.poll(() => focused(page)).toMatch(/^textbox/)
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('order-amount')

      // Cancel on the order's row: said politely; the row (the only one) gone, focus on the list's
      // tab, which says there are none left, never the body
      const orders = page.getByTestId('spot-orders')
      await orders.locator('[data-order-status=open]').first().waitFor()
      await tabTo(page, '[data-testid=cancel-order]')
      await page.keyboard.press('Enter')
      await expect.poll(() => politeRegion(page)).toContain(text.trade.orderCancelled)
      await expect.poll(() => orders.locator('[data-order-status=open]').count()).toBe(0)
      await expect.poll(() => focused(page)).toBe(`tab "${text.trade.openOrders} (0)"`)

      // Cancel all asks in a dialog; Escape closes it with focus back on Cancel all
      await tabTo(page, '#order-amount', true)
      await page.keyboard.type('1')
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toContain(text.trade.orderPlaced)
      await page.keyboard.press('Escape')
      await orders.locator('[data-order-status=open]').first().waitFor()
      await tabTo(page, '[data-testid=cancel-all]')
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: text.desk.cancelAll })
      await expect.poll(() => dialog.getAttribute('aria-modal')).toBe('true')
      expect(await focused(page)).toBe(`heading "${text.desk.cancelAll}"`)
      await expectNoAxeViolations(page)
      await page.keyboard.press('Escape')
      expect(await dialog.count()).toBe(0)
      expect(await focused(page)).toBe(`button "${text.desk.cancelAll}"`)
      await page.keyboard.press('Enter')
      await tabTo(page, '[data-testid=cancel-all-confirm]')
      await page.keyboard.press('Enter')
      await expect
        .poll(() => focused(page))
        .toContain(text.desk.cancelledCount!.replace('{{number}}', '1').slice(0, -1))
      await expect.poll(() => orders.locator('[data-order-status=open]').count()).toBe(0)
      expect(await nestedLiveRegions(page)).toBe(0)
      await expectNoAxeViolations(page)
    })

    it('open orders: a cancelled row hands focus to the next Cancel, then the previous, then the tab, each cancel said', async () => {
      const { page, token } = await signedIn(language)
      // three limits on ETH far under its catalogue price (3,480) and inside the sandbox's band
      for (const price of ['1700', '1750', '1800'])
        await postApi(
          suite.stack,
          '/api/currency/order/submit',
          { symbol: 'ethusdt', side: 'buy', type: 'limit', price, amount: '0.1' },
          token,
        )
      await pages.go(page, '/trade?componentName=3&symbol=ethusdt')
      const rows = page.getByTestId('spot-orders').locator('tr[data-order-status=open]')
      await expect.poll(() => rows.count()).toBe(3)
      const ids = await rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-order-id')))
      const cancelOf = (id: string | null) => `tr[data-order-id="${id}"] [data-testid=cancel-order]`
      const focusedOrder = () =>
        page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-order-id') ?? null)
      const heard = await heardPolitely(page)
      // how many times "Order cancelled" was read out (other messages, a loading one, may come between)
      const said = async () =>
        (await heard()).filter((message) => message === text.trade.orderCancelled).length

      // the middle row: focus to the next row's Cancel
      await tabTo(page, cancelOf(ids[1]!))
      await page.keyboard.press('Enter')
      await expect.poll(() => rows.count()).toBe(2)
      await expect.poll(focusedOrder).toBe(ids[2])
      expect(await focused(page)).toBe(`button "${text.trade.cancel}"`)
      await expect.poll(said).toBe(1)

      // the last row: no next one, so the previous row's Cancel
      await page.keyboard.press('Enter')
      await expect.poll(() => rows.count()).toBe(1)
      await expect.poll(focusedOrder).toBe(ids[0])
      await expect.poll(said).toBe(2)

      // the only row: the list's tab, which says none is left
      await page.keyboard.press('Enter')
      await expect.poll(() => rows.count()).toBe(0)
      await expect.poll(() => focused(page)).toBe(`tab "${text.trade.openOrders} (0)"`)
      await expect.poll(said).toBe(3)
    })

    it("futures open orders: a cancelled row hands focus to the next row's Cancel, past its Amend", async () => {
      const token = await createContractAccount(suite.stack, '1000')
      const page = await pages.open(DESKTOP, token, inLanguage(language))
      const low = suite.stack.sandbox.state.market.price('btcusdt').times('0.8').toDecimalPlaces(0)
      for (const price of [low, low.minus(100)])
        await postApi(
          suite.stack,
          '/api/contract/order/submit',
          {
            symbol: 'btcusdt',
            leverage: 10,
            shares: '1',
            direction: 'long',
            type: 'limit',
            price: price.toFixed(),
          },
          token,
        )
      await pages.go(page, '/trade?componentName=2&symbol=btcusdt')
      await page.getByTestId('open-orders-tab').click()
      const rows = page.getByTestId('contract-orders').locator('tr[data-order-status=open]')
      await expect.poll(() => rows.count()).toBe(2)
      const ids = await rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-order-id')))
      const heard = await heardPolitely(page)
      await tabTo(page, `tr[data-order-id="${ids[0]}"] [data-testid=cancel-order]`)
      await page.keyboard.press('Enter')
      await expect.poll(() => rows.count()).toBe(1)
      // the next row's Cancel, not its Amend, nor the body
      await expect
        .poll(() =>
          page.evaluate(() => {
            const active = document.activeElement
            return `${active?.closest('tr')?.getAttribute('data-order-id')} ${active?.getAttribute('data-testid')}`
          }),
        )
        .toBe(`${ids[1]} cancel-order`)
      await expect.poll(heard).toContain(text.trade.orderCancelled)
    })

    it('second contract: Up by Enter keeps focus through the wait, then the outcome takes it', async () => {
      const { page } = await signedIn(language)
      await pages.go(page, '/trade?id=1&componentName=1&symbol=btcusdt')
      await page.locator('#order-amount').waitFor()
      await tabTo(page, '#order-amount')
      await page.keyboard.type('20')
      await tabTo(page, '[data-testid=second-up]')
      // focus is on Up while the order is sent: a busy button is told, never disabled under the focus
      const seen: string[] = []
      const watching = setInterval(() => void focused(page).then((now) => seen.push(now)), 20)
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toContain(text.trade.orderPlaced)
      clearInterval(watching)
      expect(seen).not.toContain('body')
      await expectNoAxeViolations(page)
      // Escape gives focus back to where the order was placed from
      await page.keyboard.press('Escape')
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
        .toBe('second-up')
    })

    it('transfer: the amount error is tied to the field, the outcome takes focus and gives it back', async () => {
      const { page } = await signedIn(language)
      await pages.go(page, '/transfer')
      await page.locator('#field-amount').waitFor()
      await tabTo(page, '#field-amount')
      expect(await focused(page)).toMatch(/^textbox/)
      const submit = page.locator('form button[type=submit]')
      expect(await fieldError(page, 'form button[type=submit]')).toEqual({
        invalid: null,
        said: text.errors.amountMustBePositive,
      })
      await page.keyboard.type('99999999')
      await expect
        .poll(() => fieldError(page, '#field-amount'))
        .toMatchObject({ invalid: 'true', said: expect.stringContaining(lead(text.money.transfer.over!)) })
      expect(await describedPolitely(page, '#field-amount')).toBe(true)
      // the error is the field's description, said once: not also part of its name
      expect(await focused(page)).toMatch(/^textbox/)
      expect(await focused(page)).not.toContain(lead(text.money.transfer.over!))
      // the disabled Transfer says why: the same message
      expect((await fieldError(page, 'form button[type=submit]')).said).toBe(
        (await fieldError(page, '#field-amount')).said,
      )
      expect(await submit.isDisabled()).toBe(true)
      await retype(page, '10')
      await expect.poll(() => fieldError(page, '#field-amount')).toEqual({ invalid: null, said: '' })
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toContain(text.money.transfer.done)
      await expectNoAxeViolations(page)
      await page.keyboard.press('Escape')
      await expect.poll(() => focused(page)).toMatch(/^textbox/)
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-amount')
    })

    it('address book, then withdraw: address and amount errors tied, the confirm dialog closed by Escape', async () => {
      const user = await createFundedUser(suite.stack)
      await setFundPassword(suite.stack, user, FUND_PASSWORD)
      const page = await pages.open(DESKTOP, user.token, inLanguage(language))
      await pages.go(page, '/address-book')
      const address = page.locator('#book-address')
      // the network's example address, once the networks have arrived
      await expect.poll(() => address.getAttribute('placeholder')).toMatch(/\S/)
      const example = (await address.getAttribute('placeholder')) ?? ''
      await tabTo(page, 'input[name=label]')
      await page.keyboard.type('Cold')
      await tabTo(page, '#book-address')
      await page.keyboard.type('not-an-address')
      await page.keyboard.press('Tab')
      await expect
        .poll(() => fieldError(page, '#book-address'))
        .toMatchObject({
          invalid: 'true',
          said: expect.stringContaining(lead(text.errors.addressNotForNetwork!)),
        })
      expect(await describedPolitely(page, '#book-address')).toBe(true)
      await tabTo(page, '#book-address', true)
      await retype(page, example)
      await expect.poll(() => fieldError(page, '#book-address')).toEqual({ invalid: null, said: '' })
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toContain(text.withdrawal.added)
      await page.keyboard.press('Escape')
      await expect.poll(() => focused(page)).toMatch(/^textbox/)
      await page.getByTestId('address-entry').first().waitFor()
      await expectNoAxeViolations(page)

      await pages.go(page, '/withdraw')
      await page.locator('#withdraw-address').waitFor()
      // a wrong address is judged when the field is left, and tied to it
      await tabTo(page, '#withdraw-address')
      await page.keyboard.type('nope')
      await page.keyboard.press('Tab')
      await expect
        .poll(() => fieldError(page, '#withdraw-address'))
        .toMatchObject({
          invalid: 'true',
          said: expect.stringContaining(lead(text.errors.addressNotForNetwork!)),
        })
      // the saved address, chosen from the book
      await page.getByTestId('book-entry').waitFor()
      await tabTo(page, '[data-testid=book-entry]')
      await page.keyboard.press('Enter')
      await expect.poll(() => page.locator('#withdraw-address').inputValue()).toBe(example)
      await expect.poll(() => fieldError(page, '#withdraw-address')).toEqual({ invalid: null, said: '' })
      await tabTo(page, '#field-amount')
      await page.keyboard.type('99999999')
      await expect
        .poll(() => fieldError(page, '#field-amount'))
        .toMatchObject({ invalid: 'true', said: expect.stringMatching(/\S/) })
      expect(await describedPolitely(page, '#field-amount')).toBe(true)
      const review = page.locator('form button[type=submit]')
      expect((await fieldError(page, 'form button[type=submit]')).said).toBe(
        (await fieldError(page, '#field-amount')).said,
      )
      await retype(page, '20')
      await tabTo(page, 'input[name=pwd]')
      await page.keyboard.type(FUND_PASSWORD)
      await tabTo(page, 'form button[type=submit]')
      expect(await review.isDisabled()).toBe(false)
      const reviewName = await focused(page)
      await page.keyboard.press('Enter')

      // the confirmation is a modal dialog that takes focus and keeps it
      const dialog = page.getByRole('dialog', { name: text.withdrawal.confirmTitle })
      await dialog.waitFor()
      expect(await dialog.getAttribute('aria-modal')).toBe('true')
      expect(await focused(page)).toBe(`heading "${text.withdrawal.confirmTitle}"`)
      await expectNoAxeViolations(page)
      for (let presses = 0; presses < 4; presses++) {
        await page.keyboard.press('Tab')
        expect(await dialog.evaluate((shown) => shown.contains(document.activeElement))).toBe(true)
      }
      await page.keyboard.press('Escape')
      expect(await dialog.count()).toBe(0)
      expect(await focused(page)).toBe(reviewName)
    })

    it('flash exchange: the amount error, a replaced quote said once, the outcome', async () => {
      const { page } = await signedIn(language)
      await pages.go(page, '/flashExchange')
      await page.locator('#field-amount').waitFor()
      await tabTo(page, '#field-amount')
      await page.keyboard.type('99999999')
      await expect
        .poll(() => fieldError(page, '#field-amount'))
        .toEqual({ invalid: 'true', said: text.errors.insufficientBalance })
      expect(await describedPolitely(page, '#field-amount')).toBe(true)
      await retype(page, '10')
      await expect.poll(() => fieldError(page, '#field-amount')).toEqual({ invalid: null, said: '' })
      const review = page.locator('form button[type=submit]')
      await expect.poll(() => review.isDisabled()).toBe(false)
      await tabTo(page, 'form button[type=submit]')
      await page.keyboard.press('Enter')

      const dialog = page.getByRole('dialog', { name: text.exchange.confirmTitle })
      await dialog.waitFor()
      expect(await dialog.getAttribute('aria-modal')).toBe('true')
      expect(await focused(page)).toBe(`heading "${text.exchange.confirmTitle}"`)
      // the quote holds ten seconds; its replacement is read out once, in one polite region
      const announcement = page.getByTestId('quote-announcement')
      expect(await announcement.textContent()).toBe('')
      await expect.poll(() => announcement.textContent()).toContain(lead(text.exchange.quoteRenewed!))
      const said = (await announcement.textContent()) ?? ''
      expect(said.split(lead(text.exchange.quoteRenewed!)).length).toBe(2)
      expect(await announcement.getAttribute('aria-live')).toBe('polite')
      expect(await nestedLiveRegions(page)).toBe(0)
      await expectNoAxeViolations(page)

      await tabTo(page, '[data-testid=exchange-confirm-submit]')
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toContain(lead(text.wallet.exchanged!))
      expect(await dialog.count()).toBe(0)
      await page.keyboard.press('Escape')
      // Review is disabled again with the amount cleared: focus goes to the amount, not the body
      await expect.poll(() => focused(page)).toMatch(/^textbox/)
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-amount')
    })

    it('fund password: Send code keeps focus while it counts down, and the code sent is said', async () => {
      const { page } = await signedIn(language)
      await pages.go(page, '/fund-password')
      await page.getByTestId('send-code').waitFor()
      await tabTo(page, '[data-testid=send-code]')
      await page.keyboard.press('Enter')
      await expect.poll(() => politeRegion(page)).toContain(text.auth.codeSent)
      expect(await page.getByTestId('send-code').getAttribute('aria-disabled')).toBe('true')
      expect(await page.evaluate(() => document.activeElement?.matches('[data-testid=send-code]'))).toBe(true)
    })

    it('language: the screen stays, its heading takes focus in the new language, the change is said', async () => {
      const { page } = await signedIn(language)
      await pages.go(page, '/langList')
      const other = language === 'en' ? 'ar' : 'en'
      const then = bundles[other]!
      await page.locator(`[data-lang=${other}]`).waitFor()
      await tabTo(page, `[data-lang=${other}]`)
      await page.keyboard.press('Enter')
      await expect.poll(() => focused(page)).toBe(`heading "${then.language.title}"`)
      expect(page.url()).toMatch(/#\/langList$/)
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(other === 'ar' ? 'rtl' : 'ltr')
      await expect.poll(() => politeRegion(page)).toContain(lead(then.language.changed!))
      expect(await nestedLiveRegions(page)).toBe(0)
      await expectNoAxeViolations(page)
    })
  })
}
