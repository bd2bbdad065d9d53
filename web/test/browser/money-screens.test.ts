import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { LIMITS } from '@tradegate/shared'
import {
  DESKTOP,
  PHONE,
  createFundedUser,
  inLanguage,
  screenshotPath,
  setFundPassword,
  withWithdrawalsAllDay,
  type Viewport,
} from './stack'
import { heardPolitely } from './heard'
import { readLocale, setUpSuite, signedInPages } from './suite'

// The money and account screens in Chromium against the real gateway and sandbox, at both sizes:
// identity upload, the phone rule, the security centre, deposits, withdrawals, transfers, the cash
// flow and its export, the wallet's valuation, outages, and two right-to-left and CJK walks.

interface Bundle {
  errors: Record<string, string>
  account: { kyc: Record<string, string> }
  wallet: { accounts: Record<string, string>; status: Record<string, string> }
  money: {
    kinds: Record<string, string>
    welfareTasks: Record<string, string>
    retry: string
    cashflow: { periods: Record<string, string> }
  }
}
const english = readLocale<Bundle>('en')

const suite = setUpSuite()
const pages = signedInPages(suite)
const SIZES = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const

interface Envelope<T> {
  code: number | string
  msg: string
  data: T
}

interface Account {
  email: string
  token: string
}

/** One call straight to the gateway, as the browser would make it; returns the HTTP status and envelope. */
async function call<T>(path: string, token: string, init: RequestInit = {}) {
  const response = await fetch(`${suite.stack.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', satoken: token, ...init.headers },
  })
  return { status: response.status, envelope: (await response.json()) as Envelope<T> }
}

async function ok<T>(path: string, token: string, init: RequestInit = {}): Promise<T> {
  const { envelope } = await call<T>(path, token, init)
  if (Number(envelope.code) <= 0) throw new Error(`${path}: ${envelope.msg}`)
  return envelope.data
}

/** A registered account holding `usdt` on its platform account (besides the registration credit). */
function fundedAccount(usdt = '2500'): Promise<Account> {
  return createFundedUser(suite.stack, usdt)
}

function signedInPage(viewport: Viewport, account: Account, language = 'en'): Promise<Page> {
  return pages.open(viewport, account.token, inLanguage(language))
}

/** The cells of one CSV line as RFC 4180 writes them: quoted cells may hold commas and doubled quotes. */
function csvCells(line: string): string[] {
  return [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell = '']) =>
    cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell,
  )
}

async function go(page: Page, path: string): Promise<void> {
  await pages.go(page, path)
  await page.locator('.app-main .screen').first().waitFor()
}

async function shoot(page: Page, name: string, viewport: Viewport): Promise<void> {
  await page.screenshot({ path: screenshotPath(`${viewport === PHONE ? 'phone' : 'desktop'}-money-${name}`) })
}

/** A number as the screens write it (grouped, maybe signed, maybe with a coin after it) in cents. */
function cents(text: string): number {
  const match = text.replace(/,/g, '').match(/-?\d+(\.\d+)?/)
  if (!match) throw new Error(`no number in "${text}"`)
  return Math.round(Number(match[0]) * 100)
}

/** Chooses a deposit coin whose address is cached and reads the address shown right after the click. */
async function fetchedAddress(page: Page, coin: string): Promise<string | null> {
  await page.locator(`.chips [data-coin="${coin}"]`).click()
  // a click is a discrete event: React has rendered the cached address when click() returns
  expect(await page.getByTestId('deposit-qr').count()).toBe(1)
  return page.getByTestId('deposit-address').textContent()
}

interface WalletScreen {
  total: string
  rows: Array<{ coin: string; amount: string; price: string; value: string }>
}

describe('identity upload', () => {
  for (const [label, viewport] of SIZES) {
    it(`takes a 4 MB photo, reduced in the browser, and shows it under review (${label})`, async () => {
      const account = await fundedAccount()
      const page = await signedInPage(viewport, account)
      await go(page, '/primary')
      await page.locator('input[name=realName]').fill('Ada Lovelace')
      await page.locator('input[name=idNumber]').fill('AB1234567')
      // a 4 MB PNG of noise made in the page, as a phone photo would be
      const originalBytes = await page.evaluate<number>(`(async () => {
        const canvas = document.createElement('canvas')
        canvas.width = 1500
        canvas.height = 1000
        const context2d = canvas.getContext('2d')
        const pixels = context2d.createImageData(canvas.width, canvas.height)
        for (let index = 0; index < pixels.data.length; index++) {
          pixels.data[index] = index % 4 === 3 ? 255 : Math.floor(Math.random() * 256)
        }
        context2d.putImageData(pixels, 0, 0)
        const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'))
        const input = document.querySelector('input[name=document]')
        const transfer = new DataTransfer()
        transfer.items.add(new File([blob], 'passport.png', { type: 'image/png' }))
        input.files = transfer.files
        input.dispatchEvent(new Event('change', { bubbles: true }))
        return blob.size
      })()`)
      expect(originalBytes).toBeGreaterThan(4 * 1024 * 1024)
      await page.locator('form button[type=submit]').click()
      await page.waitForFunction(() => window.location.hash === '#/userauth', undefined, { timeout: 30_000 })
      await expect.poll(() => page.getByTestId('kyc-status').textContent()).toBe(english.account.kyc.pending)
      await shoot(page, 'identity-under-review', viewport)
    })
  }

  it("picks the document photo in the page's language, by keyboard, and names the chosen file", async () => {
    const account = await fundedAccount()
    const arabic = readLocale<{ account: { choosePhoto: string; noPhotoChosen: string; document: string } }>(
      'ar',
    )
    const page = await signedInPage(PHONE, account, 'ar')
    await pages.go(page, '/primary')
    const field = page.locator('label.file-pick')
    // our words, not the browser's own "Choose File" and "No file chosen"
    await expect
      .poll(() => field.textContent())
      .toBe(arabic.account.choosePhoto + arabic.account.noPhotoChosen)
    // Tab from the document number reaches the (hidden) picker, whose ring shows on its label
    await page.locator('input[name=idNumber]').focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('document')
    expect(
      await page.evaluate(`getComputedStyle(document.querySelector('label.file-pick')).outlineStyle`),
    ).toBe('solid')
    await page.locator('input[name=document]').setInputFiles({
      name: 'passport.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from([0xff, 0xd8, 0xff]),
    })
    await expect.poll(() => page.getByTestId('file-chosen').textContent()).toBe('passport.jpg')
    // a screen reader hears the field's label and the chosen file
    expect(
      await page.locator('input[name=document]').evaluate((input) =>
        (input.getAttribute('aria-labelledby') ?? '')
          .split(' ')
          .map((id: string) => document.getElementById(id)?.textContent)
          .join(' '),
      ),
    ).toBe(`${arabic.account.document} passport.jpg`)
    await shoot(page, 'identity-photo-picked-ar', PHONE)
  })

  it('refuses a file that is not a photo before uploading, with a translated message', async () => {
    const account = await fundedAccount()
    const page = await signedInPage(PHONE, account)
    await go(page, '/primary')
    const heard = await heardPolitely(page)
    await page.locator('input[name=realName]').fill('Ada Lovelace')
    await page.locator('input[name=idNumber]').fill('AB1234567')
    await page
      .locator('input[name=document]')
      .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') })
    const before = suite.stack.apiRequests.filter((url) => url.startsWith('/api/user/uploadKYC')).length
    await page.locator('form button[type=submit]').click()
    await expect.poll(heard).toContain(english.errors.documentNotImage)
    expect(suite.stack.apiRequests.filter((url) => url.startsWith('/api/user/uploadKYC')).length).toBe(before)
  })
})

describe('phone rule of SPEC §5', () => {
  for (const [label, viewport] of SIZES) {
    it(`refuses "123456" in the client before any request (${label})`, async () => {
      const account = await fundedAccount()
      const page = await signedInPage(viewport, account)
      await go(page, '/phoneAuth')
      const heard = await heardPolitely(page)
      const sent = suite.stack.apiRequests.length
      await page.locator('input[name=phone]').fill('123456')
      await expect.poll(() => page.getByTestId('phone-rule').textContent()).toBe(english.errors.invalidPhone)
      expect(await page.getByTestId('send-code').isDisabled()).toBe(true)
      await page.locator('input[name=code]').fill('123456')
      await page.evaluate(`document.querySelector('form').requestSubmit()`)
      await expect.poll(heard).toContain(english.errors.invalidPhone)
      expect(
        suite.stack.apiRequests.slice(sent).filter((url) => /bindPhone|sendMobileCode/.test(url)),
      ).toEqual([])
      await shoot(page, 'phone-rule', viewport)
      await page.locator('input[name=phone]').fill('13800138000')
      await expect.poll(() => page.getByTestId('send-code').isDisabled()).toBe(false)
    })
  }

  it('is enforced by the gateway too: a direct request with "123456" gets 400 and never reaches the sandbox', async () => {
    const account = await fundedAccount()
    const before =
      (await suite.stack.control<Record<string, number>>('/sandbox/calls'))['/api/user/bindPhone'] ?? 0
    const bind = await call('/api/user/bindPhone?phone=123456&code=123456', account.token, { method: 'POST' })
    expect(bind.status).toBe(400)
    const send = await call('/api/user/sendMobileCode?codeType=bind&phone=123456', '', { method: 'POST' })
    expect(send.status).toBe(400)
    const after =
      (await suite.stack.control<Record<string, number>>('/sandbox/calls'))['/api/user/bindPhone'] ?? 0
    expect(after).toBe(before)
    // a number that keeps the rule passes the gateway and reaches the sandbox
    expect(
      (await call('/api/user/sendMobileCode?codeType=bind&phone=8613800138000', '', { method: 'POST' }))
        .status,
    ).toBe(200)
  })
})

describe('security centre', () => {
  it('is reached from the drawer on a phone and from the sidebar on a desktop', async () => {
    const account = await fundedAccount()
    const phone = await signedInPage(PHONE, account)
    await go(phone, '/')
    await phone.locator('button.icon-button.mobile-only').first().click()
    await phone.locator('.drawer [data-menu=security]').click()
    await phone.waitForFunction(() => window.location.hash === '#/secrety')
    await expect.poll(() => phone.getByTestId('security-centre').locator('li').count()).toBe(5)
    const text = await phone.getByTestId('security-centre').textContent()
    expect(text).toContain(account.email)
    expect(text).toContain(english.account.kyc.none)
    await shoot(phone, 'security-centre', PHONE)

    const desktop = await signedInPage(DESKTOP, account)
    await go(desktop, '/wallet')
    await desktop.locator('.desktop-sidebar [data-menu=security]').click()
    await desktop.waitForFunction(() => window.location.hash === '#/secrety')
    await expect.poll(() => desktop.getByTestId('security-centre').locator('li').count()).toBe(5)
    // and from the wallet
    await go(desktop, '/wallet')
    await desktop.locator('.action-grid a[href="#/secrety"]').click()
    await desktop.waitForFunction(() => window.location.hash === '#/secrety')
    await shoot(desktop, 'security-centre', DESKTOP)
  })
})

describe('withdraw', () => {
  for (const [label, viewport] of SIZES) {
    it(`shows window, balance, fee and amount received before input, and Max fills the balance (${label})`, async () => {
      const account = await fundedAccount('2500')
      const page = await signedInPage(viewport, account)
      await go(page, '/withdraw')
      // before anything is typed
      await expect.poll(() => page.getByTestId('withdraw-window').textContent()).toMatch(/11:00–23:00/)
      await expect.poll(() => page.getByTestId('withdraw-available').textContent()).toBe('2,580.00 USDT')
      expect(await page.getByTestId('withdraw-fee-rule').textContent()).toContain('10%')
      expect(await page.getByTestId('withdraw-fee').textContent()).toBe('0.00 USDT')
      expect(await page.getByTestId('withdraw-receive').textContent()).toBe('0.00 USDT')
      // no fund password yet: the rule is said before the form, with the way to set one
      await page.getByTestId('needs-fund-password').locator('a[href="#/fund-password"]').waitFor()
      await shoot(page, 'withdraw-before-input', viewport)

      await page.getByTestId('withdraw-max').click()
      expect(await page.locator('input[name=amount]').inputValue()).toBe('2580')
      expect(await page.getByTestId('withdraw-fee').textContent()).toBe('258.00 USDT')
      expect(await page.getByTestId('withdraw-receive').textContent()).toBe('2,322.00 USDT')
      // a minus sign never gets into the amount
      await page.locator('input[name=amount]').fill('-5')
      expect(await page.locator('input[name=amount]').inputValue()).toBe('5')
      await shoot(page, 'withdraw-max', viewport)
    })
  }
})

describe('deposit', () => {
  for (const [label, viewport] of SIZES) {
    it(`shows the address as a QR code with the network warning and minimum, and lists a submitted deposit (${label})`, async () => {
      const account = await fundedAccount()
      const page = await signedInPage(viewport, account)
      await go(page, '/recharge')
      await page.getByTestId('deposit-qr').waitFor()
      const address = await page.getByTestId('deposit-address').textContent()
      expect(await page.getByTestId('deposit-qr').getAttribute('data-text')).toBe(address)
      expect(await page.getByTestId('network-warning').textContent()).toContain('TRC20')
      expect(await page.getByTestId('recharge-minimum').textContent()).toBe('1 USDT')
      await page.locator('input[name=amount]').fill('50')
      await page.locator('form button[type=submit]').click()
      await expect
        .poll(() => page.getByTestId('recharge-list').locator('li').first().textContent())
        .toMatch(/50\.00 USDT.*Pending/)
      await shoot(page, 'recharge-submitted', viewport)
    })
  }

  it("shows XRP's destination tag beside its shared address, and no tag where the address is the user's own", async () => {
    const account = await fundedAccount()
    const page = await signedInPage(PHONE, account)
    await go(page, '/recharge')
    await page.getByTestId('deposit-qr').waitFor()
    expect(await page.getByTestId('deposit-memo').count()).toBe(0)
    await page.locator('[data-coin="XRP-XRP"]').click()
    const { memo } = await ok<{ memo?: string }>('/api/recharge/payAddress', account.token, {
      method: 'POST',
      body: JSON.stringify({ coin: 'xrp', chain: 'XRP' }),
    })
    expect(memo).toMatch(/^\d{1,10}$/)
    // the page waits out the 5 s between address fetches before it asks for XRP's
    await expect.poll(() => page.getByTestId('deposit-memo').textContent(), { timeout: 30_000 }).toBe(memo)
    expect(await page.getByTestId('deposit-memo-note').textContent()).toContain('Destination tag')
    await shoot(page, 'recharge-xrp-tag', PHONE)
  })

  it('fetches deposit addresses at most once per 5 s over all coins, and each coin only once', async () => {
    const account = await fundedAccount()
    const page = await signedInPage(PHONE, account)
    // every address fetch the page sends: which channel, and when
    const fetches: Array<{ channel: string }> = []
    page.on('request', (request) => {
      if (!request.url().includes('/api/recharge/payAddress')) return
      const body = JSON.parse(request.postData() ?? '{}') as { coin?: string; chain?: string }
      fetches.push({ channel: `${body.coin?.toUpperCase()}-${body.chain}` })
    })
    await go(page, '/recharge')
    await page.getByTestId('deposit-qr').waitFor()
    const firstShown = await page.getByTestId('deposit-address').textContent()
    const coins = await page
      .locator('.chips [data-coin]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-coin') ?? ''))
    expect(coins.length).toBeGreaterThanOrEqual(5)
    expect(fetches.map((fetch) => fetch.channel)).toEqual([coins[0]])
    for (const coin of coins.slice(1)) await page.locator(`.chips [data-coin="${coin}"]`).click()
    // the burst waits for the 5 s window and fetches only the last choice
    const last = coins.at(-1)!
    await expect.poll(() => fetches.length).toBe(2)
    expect(fetches[1]!.channel).toBe(last)
    // the window is counted from the first fetch, by the page's own clock (the test's sees each
    // request only when its event reaches it, which a busy machine delays by different amounts)
    // (a request has its timing entry only once its answer is in, which a busy machine may delay)
    const sentTimes = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('/api/recharge/payAddress'))
          .map((entry) => entry.startTime),
      )
    await expect.poll(async () => (await sentTimes()).length).toBe(2)
    const sentAt = await sentTimes()
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(LIMITS.addressFetchDebounceMs - 250)
    await expect.poll(() => page.getByTestId('deposit-qr').count()).toBe(1)
    expect(await page.locator('.chips [aria-pressed=true]').getAttribute('data-coin')).toBe(last)
    // back to a coin already fetched: its address is on screen as soon as it is chosen, without a request
    expect(await fetchedAddress(page, coins[0]!)).toBe(firstShown)
    // a coin never fetched goes out next, in its own window: the cached one was never asked again
    await page.locator(`.chips [data-coin="${coins[1]}"]`).click()
    await expect.poll(() => fetches.length).toBe(3)
    expect(fetches.map((fetch) => fetch.channel)).toEqual([coins[0], last, coins[1]])
  })
})

describe('transfer', () => {
  for (const [label, viewport] of SIZES) {
    it(`moves USDT from the contract account back to the platform account (${label})`, async () => {
      const account = await fundedAccount('1000')
      await ok('/api/asset/transferFunds', account.token, {
        method: 'POST',
        body: JSON.stringify({ coin: 'usdt', from: 'platform', to: 'contract', amount: '100' }),
      })
      const page = await signedInPage(viewport, account)
      await go(page, '/wallet')
      await page.locator('.action-grid a[href="#/transfer"]').click()
      await page.locator('select[name=from]').selectOption('contract')
      expect(await page.locator('select[name=to]').inputValue()).toBe('platform')
      await expect.poll(() => page.getByTestId('transfer-available').textContent()).toBe('100.00 USDT')
      await page.locator('input[name=amount]').fill('40')
      await page.locator('form button[type=submit]').click()
      await expect.poll(() => page.getByTestId('transfer-available').textContent()).toBe('60.00 USDT')
      const balances = await ok<Array<{ account: string; coin: string; available: string }>>(
        '/api/asset/assetBalance',
        account.token,
      )
      const usdt = (name: string) =>
        balances.find((row) => row.account === name && row.coin === 'usdt')?.available
      expect(usdt('contract')).toBe('60')
      expect(usdt('platform')).toBe('1020')
      await shoot(page, 'transfer', viewport)
    })
  }
})

describe('cash flow', () => {
  it('shows a withdrawal once, filters by type and date, and exports what it shows', async () => {
    await withWithdrawalsAllDay(suite.stack, async () => {
      const account = await fundedAccount('1000')
      await setFundPassword(suite.stack, account, 'fund-pass-1')
      const address = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'
      const first = await ok<{ id: number }>(
        `/api/withdraw/submit?coin=usdt&chain=TRC20&amount=100&address=${address}&pwd=fund-pass-1`,
        account.token,
        { method: 'POST' },
      )
      await suite.stack.control('/sandbox/withdraw/review', { id: first.id, approve: true })
      await ok(
        `/api/withdraw/submit?coin=usdt&chain=TRC20&amount=30&address=${address}&pwd=fund-pass-1`,
        account.token,
        {
          method: 'POST',
        },
      )

      for (const [, viewport] of SIZES) {
        const page = await signedInPage(viewport, account)
        await go(page, '/cashflow')
        const rows = page.getByTestId('cashflow').locator('li')
        await rows.first().waitFor()
        await page.locator('select[name=kind]').selectOption('withdraw')
        await expect.poll(() => rows.count()).toBe(2)
        const lines = await rows.allTextContents()
        expect(lines.every((line) => line.includes(english.money.kinds.withdraw!))).toBe(true)
        expect(lines.every((line) => line.includes(english.wallet.accounts.platform!))).toBe(true)
        const amounts = () => page.getByTestId('record-amount').allTextContents()
        expect((await amounts()).map(cents)).toEqual([-3000, -10000])

        // the named periods need no date field; today's withdrawals are in each of them
        expect(await page.locator('input[type=date]').count()).toBe(0)
        for (const period of ['today', 'week', 'month']) {
          await page.locator('select[name=period]').selectOption(period)
          await expect.poll(() => rows.count()).toBe(2)
        }
        // chosen dates: a day after today shows nothing; today shows the same lines again
        await page.locator('select[name=period]').selectOption('custom')
        const today = await page.evaluate(() =>
          new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10),
        )
        const tomorrow = await page.evaluate(() =>
          new Date(Date.now() + 32 * 3600_000).toISOString().slice(0, 10),
        )
        await expect.poll(() => rows.count()).toBe(2)
        await page.locator('input[name=from]').fill(today)
        await page.locator('input[name=to]').fill(today)
        await expect.poll(() => rows.count()).toBe(2)
        await page.locator('input[name=to]').fill('')
        await page.locator('input[name=from]').fill(tomorrow)
        await expect.poll(() => rows.count()).toBe(0)
        // back to every day: the chosen dates no longer filter
        await page.locator('select[name=period]').selectOption('all')
        await expect.poll(() => rows.count()).toBe(2)
        expect(await page.locator('input[type=date]').count()).toBe(0)
        await shoot(page, 'cashflow-withdrawals', viewport)

        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByTestId('cashflow-export').click(),
        ])
        const csv = (await readFile(await download.path())).toString('utf8').replace(/^\ufeff/, '')
        const [header, ...records] = csv.trim().split('\r\n')
        expect(header).toBe(['Time', 'Type', 'Account', 'Coin', 'Amount', 'Balance'].join(','))
        expect(records).toHaveLength(2)
        const shown = await rows.allTextContents()
        const shownAmounts = await amounts()
        records.forEach((record, index) => {
          // a time has commas ("Dec 5, 2026, 14:03:09 UTC+8"), so its cell is quoted
          const [time, type, accountName, coin, amount, balance] = csvCells(record)
          // USDT's figures at its places, as the screen writes them, not the ledger's raw digits
          expect(amount).toMatch(/^-\d+\.\d\d$/)
          expect(balance).toMatch(/^\d+\.\d\d$/)
          expect(shown[index]).toContain(time)
          expect(shown[index]).toContain(type)
          expect(shown[index]).toContain(accountName)
          expect(shown[index]).toContain(coin)
          expect(cents(amount!)).toBe(cents(shownAmounts[index]!))
        })
      }
    })
  })
})

describe('wallet', () => {
  for (const [label, viewport] of SIZES) {
    it(`totals exactly the coin values it shows at the prices it shows (${label})`, async () => {
      const account = await fundedAccount('3000')
      await ok('/api/texchange/currencyExchange', account.token, {
        method: 'POST',
        body: JSON.stringify({ from: 'usdt', to: 'btc', amount: '500' }),
      })
      await ok('/api/texchange/currencyExchange', account.token, {
        method: 'POST',
        body: JSON.stringify({ from: 'usdt', to: 'eth', amount: '250' }),
      })
      const page = await signedInPage(viewport, account)
      await go(page, '/wallet')
      await page.locator('[data-testid=coin-values] [data-coin=btc] [data-testid=coin-value]').waitFor()
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-testid=coin-value]')].every((node) =>
          /\d/.test(node.textContent ?? ''),
        ),
      )
      // one read of the whole screen, so a live tick cannot fall between the rows and the total
      const screen = await page.evaluate<WalletScreen>(`({
        total: document.querySelector('[data-testid=wallet-total]').textContent,
        rows: [...document.querySelectorAll('[data-testid=coin-values] li')].map((row) => ({
          coin: row.getAttribute('data-coin'),
          amount: row.querySelector('[data-testid=coin-amount]').textContent,
          price: row.querySelector('[data-testid=coin-price]').textContent,
          value: row.querySelector('[data-testid=coin-value]').textContent,
        })),
      })`)
      expect(screen.rows.map((row) => row.coin).sort()).toEqual(['btc', 'eth', 'usdt'])
      expect(screen.rows.reduce((sum, row) => sum + cents(row.value), 0)).toBe(cents(screen.total))
      for (const row of screen.rows) {
        // each value is its amount at the shown price, rounded down to the cent
        const exact = Number(row.amount.replace(/,/g, '')) * Number(row.price.replace(/,/g, ''))
        expect(Math.abs(cents(row.value) - Math.floor(exact * 100))).toBeLessThanOrEqual(1)
      }
      const btc = screen.rows.find((row) => row.coin === 'btc')!
      // bought at BTC's precision in the coin list (5 places) and shown at it
      expect(btc.amount).toMatch(/^0\.\d{2,5}$/)
      await shoot(page, 'wallet', viewport)
    })
  }
})

describe('outages', () => {
  const BALANCE = '/api/asset/assetBalance'
  /** every attempt at the balance fails until cleared, so the page's own timed retries cannot heal it mid-check */
  const failBalances = () =>
    suite.stack.control('/sandbox/fail', { count: 1000, mode: 'reset', path: BALANCE })
  const healBalances = () => suite.stack.control('/sandbox/fail/clear', {})

  it("shows the gateway's reason for a 502, in the reader's language, and a retry that brings the screen back", async () => {
    const account = await fundedAccount()
    const page = await signedInPage(DESKTOP, account)
    const heard = await heardPolitely(page)
    // the backend drops every attempt at the balance (the gateway retries a GET twice): 502
    await failBalances()
    try {
      const direct = await call(BALANCE, account.token)
      expect(direct.status).toBe(502)
      // the gateway names why: the exchange did not answer
      expect(direct.envelope.msg).toBe('upstreamUnavailable')
      await go(page, '/wallet')
      const failure = page.getByTestId('failure')
      await failure.waitFor()
      // the reason, not the catch-all "Network anomaly", which stays for an answer that gives none
      expect(await failure.textContent()).toContain(english.errors.upstreamUnavailable)
      await expect.poll(heard).toContain(english.errors.upstreamUnavailable)
      expect(await failure.textContent()).not.toContain(english.errors.networkAnomaly)
      await shoot(page, 'network-anomaly', DESKTOP)
      // Retry asks the gateway again; while the exchange is still down the failure stands
      const asked = page.waitForResponse((response) => response.url().includes(BALANCE))
      await failure.getByRole('button', { name: english.money.retry }).click()
      expect((await asked).status()).toBe(502)
      await failure.waitFor()
    } finally {
      await healBalances()
    }
    // once it answers, Retry brings the screen back. The page also retries a failed read by itself, on
    // a timer, and may have healed first: the button is pressed in the page only if it is still there
    await page.evaluate(`document.querySelector('[data-testid="failure"] button')?.click()`)
    await page.getByTestId('wallet-total').waitFor()

    // in another language the reason is that language's, never the gateway's key or the English text
    const japanese = readLocale<Bundle>('ja')
    expect(japanese.errors.upstreamUnavailable).not.toBe(english.errors.upstreamUnavailable)
    // the English page is closed first: its own refreshes would take the failures meant for this one
    await page.close()
    const inJapanese = await signedInPage(DESKTOP, account, 'ja')
    const heardInJapanese = await heardPolitely(inJapanese)
    await failBalances()
    try {
      await go(inJapanese, '/wallet')
      await inJapanese.getByTestId('failure').waitFor()
      const shown = await inJapanese.getByTestId('failure').textContent()
      expect(shown).toContain(japanese.errors.upstreamUnavailable)
      expect(shown).not.toContain('upstreamUnavailable')
      expect(shown).not.toContain(english.errors.upstreamUnavailable)
      await expect.poll(heardInJapanese).toContain(japanese.errors.upstreamUnavailable)
      expect(await heardInJapanese()).not.toContain(english.errors.upstreamUnavailable)
    } finally {
      await healBalances()
    }
  })
})

describe('language list', () => {
  it('opened in a fresh tab, stays on the list in the chosen language; its back arrow goes home, not to about:blank', async () => {
    const context = await suite.browser.newContext({ viewport: PHONE })
    const page = await context.newPage()
    await page.goto(`${suite.stack.url}/#/langList`)
    await page.locator('[data-lang=ja]').click()
    await page.waitForFunction(() => document.documentElement.lang === 'ja')
    expect(await page.evaluate(() => window.location.hash)).toBe('#/langList')
    await page.locator('.top-bar .icon-button').first().click()
    await page.waitForFunction(() => window.location.hash === '#/')
    expect(page.url()).toContain(suite.stack.url)
    await page.locator('.tab-bar').waitFor()
    // the top bar's back arrow on a directly opened screen goes home too
    await page.goto(`${suite.stack.url}/#/download`)
    await page.locator('.top-bar .icon-button').first().click()
    await page.waitForFunction(() => window.location.hash === '#/')
    expect(page.url()).toContain(suite.stack.url)
  })
})

describe('no raw key and no English on welfare and cash flow', () => {
  for (const language of ['ar', 'ja'] as const) {
    for (const [label, viewport] of SIZES) {
      it(`${language} at ${label} size`, async () => {
        const account = await fundedAccount('500')
        await ok('/api/asset/transferFunds', account.token, {
          method: 'POST',
          body: JSON.stringify({ coin: 'usdt', from: 'platform', to: 'contract', amount: '10' }),
        })
        await ok('/api/texchange/currencyExchange', account.token, {
          method: 'POST',
          body: JSON.stringify({ from: 'usdt', to: 'btc', amount: '20' }),
        })
        const bundle = readLocale<Bundle>(language)
        const page = await signedInPage(viewport, account, language)
        const englishWords = [
          ...Object.values(english.money.kinds),
          ...Object.values(english.money.welfareTasks).filter((text) => !text.includes('{{')),
          ...Object.values(english.wallet.accounts),
          'usdt to btc',
          'platform to contract',
          'registration credit',
        ]
        const rawKey =
          /\b(signUp|firstDeposit|verifyIdentity|firstTrade|amountBelowTraderMinimum|money\.|errors\.|wallet\.)/

        await go(page, '/welfare')
        await page.locator('.screen .list li').first().waitFor()
        const welfare = await page.locator('.app-main').innerText()
        expect(welfare).not.toMatch(rawKey)
        for (const word of englishWords) expect(welfare).not.toContain(word)
        expect(welfare).toContain(bundle.money.welfareTasks.firstDeposit)
        await shoot(page, `welfare-${language}`, viewport)

        await go(page, '/cashflow')
        await page.getByTestId('cashflow').locator('li').first().waitFor()
        const cashflow = await page.locator('.app-main').innerText()
        expect(cashflow).not.toMatch(rawKey)
        for (const word of englishWords) expect(cashflow).not.toContain(word)
        for (const kind of ['bonus', 'deposit', 'transfer', 'exchange'])
          expect(cashflow).toContain(bundle.money.kinds[kind])
        // dates are chosen as periods named in the page's language, not in the browser's date fields
        const period = page.locator('select[name=period]')
        expect(await period.locator('option:checked').textContent()).toBe(bundle.money.cashflow.periods.all)
        expect(await page.locator('input[type=date]').count()).toBe(0)
        await shoot(page, `cashflow-${language}`, viewport)
      })
    }
  }
})
