import type { Page } from 'playwright-core'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  DESKTOP,
  PHONE,
  createFundedAccount,
  inLanguage,
  painted,
  screenshotPath,
  signedInContext,
} from './stack'
import { setUpSuite, signedInPages } from './suite'
import { axeViolations, type AxeViolation } from './axe'

// Opens every route of the router, signed in, at both sizes, checks each with axe, and keeps a
// screenshot of each as an artifact.

const routesSource = readFileSync(new URL('../../src/app/routes.ts', import.meta.url), 'utf8')
const PATHS = [...routesSource.matchAll(/path: '([^']+)'/g)].map((match) => match[1] as string)

const suite = setUpSuite()
const pages = signedInPages(suite)
let token = ''

/** The routes the product specification names: public, signed in, and those of the default menus. */
const SPECIFIED_PATHS = [
  ...['/', '/login', '/register', '/userAgreement', '/privacyPolicy', '/forget', '/setpwd', '/langList'],
  ...['/download', '/invaite', '/help', '/helpDetail/:id', '/finance', '/subscribe/:id', '/floworder'],
  ...['/floworder/mine', '/floworder/apply', '/floworder/confirm/:id', '/newDetail', '/secrety'],
  ...['/fund-password', '/userauth', '/emailAuthentication', '/changePassword', '/message'],
  ...['/message/detail', '/withdrawDeposit', '/store', '/addOptional', '/wallet', '/trade', '/tradeChart'],
  ...['/proxy', '/proxy/records', '/proxy/earnings', '/recharge', '/withdraw', '/exchange', '/search'],
  ...['/phoneAuth', '/cashflow', '/flashExchange'],
  ...['/option', '/follow', '/assets', '/welfare', '/invite', '/extend', '/primary', '/advanced'],
]

/** Screens that send a direct visit elsewhere on purpose: /setpwd needs the code entered on /forget. */
const REDIRECTS: Record<string, string> = { '/setpwd': '/forget' }

/** A readable file name for a route: /floworder/confirm/:id -> floworder-confirm-id. */
function screenName(path: string): string {
  return path === '/' ? 'home' : path.replace(/^\//, '').replace(/[/:]+/g, '-')
}

beforeAll(async () => {
  token = await createFundedAccount(suite.stack)
})

/** The screen shown, its requests done and its loading placeholder gone (if it goes within 5 s). */
async function screenLoaded(page: Page): Promise<void> {
  await page.locator('.app-main > *:visible').first().waitFor()
  await page.waitForLoadState('networkidle')
  await page
    .locator('.loading-block')
    .first()
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => undefined)
}

describe('every screen', () => {
  it('routes every path of the specification, each once', () => {
    expect(SPECIFIED_PATHS.filter((path) => !PATHS.includes(path))).toEqual([])
    expect(new Set(PATHS).size).toBe(PATHS.length)
  })

  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it.concurrent(
      `renders each route signed in at ${viewport.width}x${viewport.height}, without errors`,
      async () => {
        const context = await signedInContext(suite.browser, viewport, token)
        const page = await context.newPage()
        const errors: string[] = []
        const violations: ({ path: string } & AxeViolation)[] = []
        page.on('pageerror', (error) => errors.push(`${error.message}`))
        for (const path of PATHS) {
          const url = path.replace(':id', '1')
          // the toasts of the previous screen gone first (each stays LIMITS.toastMs), so each picture
          // shows its own screen and only its own toasts
          await page.getByTestId('toast').first().waitFor({ state: 'detached' })
          await page.goto(`${suite.stack.url}/#${url}${path === '/flashExchange' ? '?from=usdt&to=btc' : ''}`)
          await screenLoaded(page)
          const expected = REDIRECTS[url] ?? url
          expect(await page.evaluate(() => window.location.hash), `stayed on ${url}`).toContain(
            `#${expected}`,
          )
          await painted(page)
          await page.screenshot({ path: screenshotPath(`${label}-${screenName(path)}`) })
          for (const violation of await axeViolations(page)) violations.push({ path, ...violation })
        }
        expect(errors).toEqual([])
        expect(violations).toEqual([])
        await context.close()
      },
      // fifty screens, each checked by axe
      300_000,
    )
  }

  // the two languages whose screen names run longest: a title that fits in them fits in the others
  it.each(['ru', 'de'])(
    "%s: every screen's title reads whole on a phone, on two lines at most",
    async (language) => {
      const page = await pages.open(PHONE, token, inLanguage(language))
      const cut: string[] = []
      for (const path of PATHS) {
        await pages.go(page, path.replace(':id', '1'))
        await screenLoaded(page)
        await painted(page)
        // read once the screen has settled: a title mid-way through the screen's entrance is not what
        // a person reads, and a cut one never settles whole. null: a screen without a title bar
        const cutTitle = () =>
          page.evaluate<string | null>(`(() => {
            const element = document.querySelector('.top-bar-title')
            const bar = element && element.closest('.top-bar')
            if (!element || !bar || !element.textContent) return null
            const edge = bar.getBoundingClientRect()
            const box = element.getBoundingClientRect()
            const lines = Math.round(box.height / parseFloat(getComputedStyle(element).lineHeight))
            const whole = element.scrollWidth <= element.clientWidth + 1 && box.top >= edge.top - 1 &&
              box.bottom <= edge.bottom + 1 && lines <= 2
            return whole ? null : element.textContent
          })()`)
        const settled = await expect
          .poll(cutTitle, { timeout: 3000 })
          .toBeNull()
          .then(
            () => true,
            () => false,
          )
        if (!settled) cut.push(`${path}: ${await cutTitle()}`)
      }
      expect(cut).toEqual([])
    },
    300_000,
  )

  it('sends a signed-in visit to an invitation path (/i&...) home', async () => {
    const page = await pages.open(PHONE, token)
    await pages.go(page, '/i&inviteCode=ABC')
    await page.waitForFunction(() => window.location.hash === '#/')
  })
})
