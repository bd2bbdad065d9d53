import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  DESKTOP,
  PHONE,
  loginThroughUi,
  callApi,
  createFundedAccount,
  createFundedUser,
  openPage,
  openSignedInPage,
  postApi,
  registerThroughUi,
  screenshotPath,
  uniqueEmail,
  waitFor,
} from './stack'
import { heardPolitely } from './heard'
import { BROWSER_WAIT_MS, TEST_PASSWORD, readLocale, setUpSuite } from './suite'

// The client shell in Chromium against the real gateway and sandbox, at a phone and a desktop size.

const bundle = (code: string) =>
  readLocale<{
    tabBar: Record<string, string>
    errors: Record<string, string>
  }>(code)

const suite = setUpSuite()

/** Signs in on the sign-in screen already open, as the user would. */
async function signInOnScreen(page: Page, email: string): Promise<void> {
  await page.locator('input[name=username]').fill(email)
  await page.locator('input[name=password]').fill(TEST_PASSWORD)
  await page.locator('form button[type=submit]').click()
}

async function homePrices(page: Page): Promise<string[]> {
  return page.locator('[data-testid=home-coin-price]').allTextContents()
}

/** Waits until every home coin shows a price, then until at least one of them has moved. */
async function expectPricesToMove(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const prices = [...document.querySelectorAll('[data-testid=home-coin-price]')]
      return prices.length > 0 && prices.every((node) => /\d/.test(node.textContent ?? ''))
    },
    undefined,
    { timeout: BROWSER_WAIT_MS },
  )
  const first = await homePrices(page)
  await page.waitForFunction(
    (before) =>
      [...document.querySelectorAll('[data-testid=home-coin-price]')].some(
        (node, index) => node.textContent !== before[index],
      ),
    first,
    { timeout: BROWSER_WAIT_MS },
  )
}

describe('web client shell', () => {
  it('registers (showing the 80 USDT credit), logs in, and the home prices tick live', async () => {
    const email = uniqueEmail()
    const phone = await openPage(suite.browser, PHONE)
    await registerThroughUi(phone.page, suite.stack, email, TEST_PASSWORD)
    await expect(phone.page.getByTestId('registration-credit').textContent()).resolves.toContain('80 USDT')
    await phone.page.screenshot({ path: screenshotPath('phone-register-credit') })
    await phone.context.close()

    const desktop = await openPage(suite.browser, DESKTOP)
    await loginThroughUi(desktop.page, suite.stack, email, TEST_PASSWORD)
    await expectPricesToMove(desktop.page)
    expect(await desktop.page.locator('.desktop-sidebar').isVisible()).toBe(true)
    expect(await desktop.page.locator('.tab-bar').isVisible()).toBe(false)
    await desktop.page.screenshot({ path: screenshotPath('desktop-home-signed-in') })
    expect(desktop.errors).toEqual([])
    await desktop.context.close()
  })

  it("opens a first visit in the browser's language when a bundle matches it", async () => {
    const english = await openPage(suite.browser, PHONE, 'en-US')
    await english.page.goto(`${suite.stack.url}/#/`)
    await english.page.waitForFunction(() => document.documentElement.lang === 'en')
    await expect(english.page.locator('[data-tab=home] .tab-label').textContent()).resolves.toBe(
      bundle('en').tabBar.home,
    )
    await english.context.close()
    const german = await openPage(suite.browser, PHONE, 'de-AT')
    await german.page.goto(`${suite.stack.url}/#/`)
    await german.page.waitForFunction(() => document.documentElement.lang === 'de')
    await german.context.close()
  })

  it('turns right-to-left in Arabic and shows the Japanese tab bar in Japanese', async () => {
    // a browser language no bundle exists for: the fallback language, English, applies
    const { page, context, errors } = await openPage(suite.browser, PHONE, 'sw-KE')
    await page.goto(`${suite.stack.url}/#/`)
    await expect(page.locator('[data-tab=home] .tab-label').textContent()).resolves.toBe(
      bundle('en').tabBar.home,
    )
    expect(await page.locator('html').getAttribute('lang')).toBe('en')
    expect(await page.locator('.tab-bar .tab-item').count()).toBe(5)

    await page.getByTestId('open-languages').click()
    await page.locator('[data-lang=ar]').click()
    await page.waitForFunction(() => document.documentElement.dir === 'rtl')
    // the choice keeps the language list open; back to home to see it there
    await page.goBack()
    expect(await page.locator('html').getAttribute('lang')).toBe('ar')
    // mirrored: the first tab (home) sits on the right-hand side
    const home = await page.locator('[data-tab=home]').boundingBox()
    const fund = await page.locator('[data-tab=fund]').boundingBox()
    expect(home && fund && home.x > fund.x).toBe(true)
    await page.screenshot({ path: screenshotPath('phone-home-ar') })

    await page.getByTestId('open-languages').click()
    await page.locator('[data-lang=ja]').click()
    await page.waitForFunction(
      () => document.documentElement.lang === 'ja' && document.documentElement.dir === 'ltr',
    )
    await page.goBack()
    const japanese = bundle('ja').tabBar
    for (const key of ['home', 'market', 'trade', 'finance', 'fund']) {
      await expect(page.locator(`[data-tab=${key}] .tab-label`).textContent()).resolves.toBe(japanese[key])
    }
    // the choice survives a reload
    await page.reload()
    await page.waitForFunction(() => document.documentElement.lang === 'ja')
    expect(errors).toEqual([])
    await context.close()
  })

  it('lands a signed-out visit to a protected route on /login', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, context } = await openPage(suite.browser, viewport)
      await page.goto(`${suite.stack.url}/#/wallet`)
      // the sign-in link remembers the screen asked for
      await page.waitForFunction(() => window.location.hash === '#/login?next=%2Fwallet')
      await page.locator('input[name=username]').waitFor()
      // nothing ended a session here: no notice says one did
      expect(await page.getByTestId('session-ended').count()).toBe(0)
      await context.close()
    }
  })

  it("shows a placeholder's or a loading toast's spinner only once the load has lasted 0.4 s, turning from then on", async () => {
    const { page, context } = await openSignedInPage(
      suite.browser,
      PHONE,
      await createFundedAccount(suite.stack),
    )
    // the coin list and the user's details never answer: the trade form's place holds its spinner and
    // the first load of the user's details its loading toast
    await page.route('**/api/common/getCoinList*', () => undefined)
    await page.route('**/api/user/info*', () => undefined)
    await page.goto(`${suite.stack.url}/#/trade?id=1&componentName=3`)
    for (const selector of ['.trade-form-area .loading-block .spinner', '.toast-loading .spinner']) {
      await page.locator(selector).waitFor({ state: 'attached' })
      // the spinner's animations held at one moment of its life: whether it shows, and how it is turned
      const at = (ms: number) =>
        page.evaluate<string>(`(() => {
          const element = document.querySelector(${JSON.stringify(selector)})
          for (const animation of element.getAnimations()) {
            animation.pause()
            animation.currentTime = ${ms}
          }
          const style = getComputedStyle(element)
          return style.visibility + ' ' + style.transform
        })()`)
      expect(await at(100), selector).toBe('hidden none')
      expect(await at(399), selector).toBe('hidden none')
      // a quarter of a turn 0.2 s after it shows (0.8 s a turn): rotate(90deg) is matrix(0, 1, -1, 0, 0, 0)
      const [shown, matrix] = (await at(600)).split(' matrix(')
      expect(shown, selector).toBe('visible')
      const [cos, sin] = (matrix ?? '').split(',').map(Number)
      expect(cos, selector).toBeCloseTo(0, 6)
      expect(sin, selector).toBeCloseTo(1, 6)
    }
    await context.close()
  })

  it('names the screen in the tab title, and only the brand once the screen is left', async () => {
    // a fresh visit from a browser whose language has no bundle reads English, the fallback language
    const english = readLocale<{ brand: string; auth: { login: string } }>('en')
    const { page, context } = await openPage(suite.browser, PHONE, 'sw-KE')
    await page.goto(`${suite.stack.url}/#/login`)
    await page.waitForFunction(
      (expected) => document.title === expected,
      `${english.auth.login} · ${english.brand}`,
    )
    await page.goto(`${suite.stack.url}/#/`)
    await page.waitForFunction((brand) => document.title === brand, english.brand)
    expect(await page.locator('head > title').count()).toBe(1)
    await context.close()
  })

  it('brings each new screen in at its top after the last one was scrolled down', async () => {
    const { page, context } = await openPage(suite.browser, PHONE)
    await page.goto(`${suite.stack.url}/#/`)
    await page.locator('[data-testid=home-coin-price]').first().waitFor()
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100)
    await page.locator('.tab-bar .tab-item').nth(1).click()
    await page.waitForURL((url) => url.hash !== '#/')
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
    await context.close()
  })

  it('refuses Chinese typed into a form and sends nothing to the gateway', async () => {
    const { page, context } = await openPage(suite.browser, PHONE, 'zh-CN')
    await page.goto(`${suite.stack.url}/#/login`)
    await page.locator('input[name=username]').fill('张三@example.com')
    await page.locator('input[name=password]').fill(TEST_PASSWORD)
    await page.waitForLoadState('networkidle')
    const heard = await heardPolitely(page)
    const before = suite.stack.apiRequests.length
    const sent: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) sent.push(request.url())
    })
    await page.locator('form button[type=submit]').click()
    await expect.poll(heard).toEqual([bundle('zh').errors.cannotInputChinese])
    // a request the page makes after the refusal: the browser and the gateway see requests in the
    // order they are made, so once it arrives, whatever the form sent would be before it
    const marker = '/api/common/getAllSetting'
    await page.evaluate((path) => fetch(path).then((response) => response.status), marker)
    await expect.poll(() => suite.stack.apiRequests.slice(before)).toEqual([marker])
    expect(sent).toEqual([`${suite.stack.url}${marker}`])
    await context.close()
  })

  it('signs the user out when the token expires', async () => {
    const email = uniqueEmail()
    const { page, context } = await openPage(suite.browser, PHONE)
    await registerThroughUi(page, suite.stack, email, TEST_PASSWORD)
    await page.goto(`${suite.stack.url}/#/wallet`)
    await page.getByTestId('wallet-total').waitFor()
    await suite.stack.control('/sandbox/expire', { username: email })
    await page.goto(`${suite.stack.url}/#/cashflow`)
    await page.waitForFunction(() => window.location.hash === '#/login?next=%2Fcashflow', undefined, {
      timeout: BROWSER_WAIT_MS,
    })
    // the client reloads the page 10 ms after the expiry, which can cut a read short; poll until it lands
    await expect
      .poll(() => page.evaluate(() => [localStorage.getItem('_token'), localStorage.getItem('_userInfo')]))
      .toEqual([null, null])
    // the sign-in screen says why the user is there, and signing in returns to the screen asked for
    await expect(page.getByTestId('session-ended').textContent()).resolves.toBe(
      readLocale<{ auth: { sessionEnded: string } }>('en').auth.sessionEnded,
    )
    await signInOnScreen(page, email)
    await page.waitForFunction(() => window.location.hash === '#/cashflow')
    await context.close()
  })

  it('tells a page whose session another device ended, with no call of its own, and returns it there', async () => {
    const email = uniqueEmail()
    const { page, context } = await openPage(suite.browser, DESKTOP)
    await registerThroughUi(page, suite.stack, email, TEST_PASSWORD)
    await page.goto(`${suite.stack.url}/#/withdraw?coin=xrp`)
    await page.locator('.chips button[aria-pressed=true]', { hasText: 'XRP-XRP' }).waitFor()
    // another device of the same user signs in and out: every session of the user ends, this page's
    // too, and the page learns it from its socket while the user does nothing
    const other = await postApi<{ satoken: string }>(suite.stack, '/api/user/login', {
      type: 'email',
      username: email,
      password: TEST_PASSWORD,
    })
    await callApi(suite.stack, '/api/user/loginOut', { method: 'POST' }, other.satoken)
    await page.waitForFunction(() => window.location.hash === '#/login?next=%2Fwithdraw%3Fcoin%3Dxrp')
    await page.getByTestId('session-ended').waitFor()
    await signInOnScreen(page, email)
    await page.locator('.chips button[aria-pressed=true]', { hasText: 'XRP-XRP' }).waitFor()
    expect(await page.evaluate(() => window.location.hash)).toBe('#/withdraw?coin=xrp')
    // signed in again, the note is gone: a later sign-in screen does not repeat it
    await page.evaluate(() => localStorage.removeItem('_autoLogin'))
    await page.evaluate(() => localStorage.removeItem('_token'))
    await page.reload()
    await page.locator('input[name=username]').waitFor()
    expect(await page.getByTestId('session-ended').count()).toBe(0)
    await context.close()
  })

  it("signs the page out the moment its new password is accepted, with nothing else to tell it, and the user's other device too", async () => {
    const email = uniqueEmail()
    const newPassword = 'changed-pass-9'
    const { page, context } = await openPage(suite.browser, PHONE)
    await registerThroughUi(page, suite.stack, email, TEST_PASSWORD)
    const other = await postApi<{ satoken: string }>(suite.stack, '/api/user/login', {
      type: 'email',
      username: email,
      password: TEST_PASSWORD,
    })
    const device = await openSignedInPage(suite.browser, DESKTOP, other.satoken)
    await device.page.goto(`${suite.stack.url}/#/wallet`)
    await device.page.getByTestId('wallet-total').waitFor()
    // this page hears nothing but the change's own answer: its socket is refused, and the user info it
    // reads after a navigation never answers, so neither can say the session ended
    await page.routeWebSocket(/\/ws\//, (socket) => socket.close())
    await page.reload()
    await page.goto(`${suite.stack.url}/#/changePassword`)
    await page.locator('input[name=oldPwd]').waitFor()
    const texts = readLocale<{
      auth: { newPasswordSignedOut: string; sessionEnded: string }
      account: { newPasswordEndsSessions: string }
    }>('en')
    // what the change will do is said before it is made
    expect(await page.getByTestId('ends-sessions').textContent()).toBe(texts.account.newPasswordEndsSessions)
    await page.route('**/api/user/info*', () => undefined)
    await page.locator('input[name=oldPwd]').fill(TEST_PASSWORD)
    await page.locator('input[name=newPwd]').fill(newPassword)
    await page.locator('input[name=confirm]').fill(newPassword)
    await page.locator('form button[type=submit]').click()
    // the sign-in screen says what the new password did, not a list of what may have happened
    await expect
      .poll(() => page.getByTestId('session-ended').textContent())
      .toBe(texts.auth.newPasswordSignedOut)
    // and that is the one outcome shown: no toast sits over the sign-in form
    expect(await page.getByTestId('toast').count()).toBe(0)
    expect(
      await page.evaluate(() => [localStorage.getItem('_token'), localStorage.getItem('_autoLogin')]),
    ).toEqual([null, null])
    // the user's other device learns it from its socket, doing nothing, and is told it ended elsewhere
    await expect
      .poll(() => device.page.getByTestId('session-ended').textContent())
      .toBe(texts.auth.sessionEnded)
    expect(await device.page.evaluate(() => localStorage.getItem('_token'))).toBeNull()
    // and the new password is the one that signs in
    await page.unroute('**/api/user/info*')
    await page.locator('input[name=username]').fill(email)
    await page.locator('input[name=password]').fill(newPassword)
    await page.locator('form button[type=submit]').click()
    await expect.poll(() => page.evaluate(() => localStorage.getItem('_token'))).not.toBeNull()
    await device.context.close()
    await context.close()
  })

  it('resets a forgotten password by e-mail code, saying before that it signs every device out, and after it where the new password is used', async () => {
    const texts = readLocale<{
      auth: { passwordReset: string; resetEndsSessions: string; sessionEnded: string; forgotPassword: string }
    }>('en')
    const { email, token } = await createFundedUser(suite.stack)
    const newPassword = 'reset-pass-9'
    const device = await openSignedInPage(suite.browser, DESKTOP, token)
    await device.page.goto(`${suite.stack.url}/#/wallet`)
    await device.page.getByTestId('wallet-total').waitFor()
    const { page, context } = await openPage(suite.browser, PHONE)
    await page.goto(`${suite.stack.url}/#/login`)
    await page.getByRole('link', { name: texts.auth.forgotPassword }).click()
    const next = page.locator('form button[type=submit]')
    // what the first step needs is shown by its button, not learned from a refusal
    expect(await next.isDisabled()).toBe(true)
    await page.locator('input[name=email]').fill(email)
    expect(await next.isDisabled()).toBe(true)
    await page.getByTestId('send-code').click()
    // the register code was used up, so the one found is the reset's
    const sent = await waitFor(() =>
      suite.stack.control<{ code: string }>(`/sandbox/last-code?to=${encodeURIComponent(email)}`),
    )
    await page.locator('input[name=code]').fill(sent.code)
    await next.click()
    await page.waitForURL(/#\/setpwd/)
    expect(await page.getByTestId('ends-sessions').textContent()).toBe(texts.auth.resetEndsSessions)
    await page.locator('input[name=password]').fill(newPassword)
    await page.locator('input[name=confirm]').fill(newPassword)
    await page.locator('form button[type=submit]').click()
    // the sign-in screen says it, and no toast saying it covers its form
    await page.waitForURL(/#\/login/)
    expect(await page.getByTestId('password-reset').textContent()).toBe(texts.auth.passwordReset)
    expect(await page.getByTestId('toast').allTextContents()).not.toContain(texts.auth.passwordReset)
    // the device signed in before is signed out, and told its session ended
    await expect
      .poll(() => device.page.getByTestId('session-ended').textContent())
      .toBe(texts.auth.sessionEnded)
    // the new password signs in; the note is not shown on a later visit
    await page.locator('input[name=username]').fill(email)
    await page.locator('input[name=password]').fill(newPassword)
    await page.locator('form button[type=submit]').click()
    await page.locator('input[name=username]').waitFor({ state: 'detached' })
    expect(await page.evaluate(() => localStorage.getItem('_token'))).not.toBeNull()
    await page.evaluate(() => localStorage.removeItem('_token'))
    await page.goto(`${suite.stack.url}/#/login`)
    await page.locator('input[name=username]').waitFor()
    expect(await page.getByTestId('password-reset').count()).toBe(0)
    await device.context.close()
    await context.close()
  })

  it('signs in automatically with the stored parameters when the token is gone, on the link it was opened with', async () => {
    const email = uniqueEmail()
    const { page, context } = await openPage(suite.browser, DESKTOP)
    await registerThroughUi(page, suite.stack, email, TEST_PASSWORD)
    const firstToken = await page.evaluate(() => localStorage.getItem('_token'))
    await page.evaluate(() => localStorage.removeItem('_token'))
    await page.goto(`${suite.stack.url}/#/withdraw?coin=xrp`)
    await page.reload()
    await page.waitForFunction(
      (previous) => ![null, previous].includes(localStorage.getItem('_token')),
      firstToken,
    )
    // the deep link, its coin included, not Home
    await page.locator('.chips button[aria-pressed=true]', { hasText: 'XRP-XRP' }).waitFor()
    expect(await page.evaluate(() => window.location.hash)).toBe('#/withdraw?coin=xrp')
    await page.goto(`${suite.stack.url}/#/wallet`)
    await page.getByTestId('wallet-total').waitFor()
    await context.close()
  })

  it('leads "Customer service" to the contact channel the settings name, never the message list', async () => {
    const contactHref = async () => {
      const { page, context } = await openPage(suite.browser, PHONE)
      await page.goto(`${suite.stack.url}/#/`)
      const href = await page.getByTestId('customer-service').getAttribute('href')
      await context.close()
      return href
    }
    // the sandbox names the message list as its url and support@example.com: the mail is the channel
    expect(await contactHref()).toBe('mailto:support@example.com')
    const setService = async (service: { url: string; email: string }) => {
      await suite.stack.control('/sandbox/settings', { CUSTOMER_SERVICE: service })
      await suite.stack.gateway.responseCache.purge()
    }
    await setService({ url: 'https://help.example.com/chat', email: 'support@example.com' })
    try {
      expect(await contactHref()).toBe('https://help.example.com/chat')
    } finally {
      await setService({ url: '/#/message', email: 'support@example.com' })
    }
  })

  it('hides balances behind the eyes switch and remembers it', async () => {
    const email = uniqueEmail()
    const { page, context } = await openPage(suite.browser, PHONE)
    await registerThroughUi(page, suite.stack, email, TEST_PASSWORD)
    await page.goto(`${suite.stack.url}/#/wallet`)
    const total = page.getByTestId('wallet-total')
    await expect.poll(() => total.textContent()).toContain('80.00')
    await page.getByTestId('eyes-toggle').click()
    await expect.poll(() => total.textContent()).toContain('****')
    await page.reload()
    await expect.poll(() => total.textContent()).toContain('****')
    expect(await total.textContent()).not.toContain('80')
    await context.close()
  })

  it('reconnects after the socket is cut and the prices move again', async () => {
    const { page, context } = await openPage(suite.browser, PHONE)
    const sockets: string[] = []
    page.on('websocket', (socket) => sockets.push(socket.url()))
    await page.goto(`${suite.stack.url}/#/`)
    await expectPricesToMove(page)
    expect(sockets).toHaveLength(1)
    expect(sockets[0]).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws\/[0-9a-f-]{36}$/)

    expect(suite.stack.relay.cutAll()).toBeGreaterThan(0)
    // the first retry comes within about a second (back-off with jitter, shared/src/reconnect.ts)
    await expect.poll(() => sockets.length).toBe(2)
    await expectPricesToMove(page)
    await page.screenshot({ path: screenshotPath('phone-home-after-reconnect') })
    await context.close()
  })
})
