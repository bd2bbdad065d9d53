import { beforeAll, describe, expect, it } from 'vitest'
import { DESKTOP, PHONE, createFundedAccount, painted, screenshotPath, signedInContext } from './stack'
import { setUpSuite, signedInPages } from './suite'
import { axeViolations, type AxeViolation } from './axe'
import { PATHS, routeOf, screenLoaded } from './routes'

// Opens every route of the router, signed in, at both sizes, checks each with axe, and keeps a
// screenshot of each as an artifact.

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
          await page.goto(`${suite.stack.url}/#${routeOf(path)}`)
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

  it('sends a signed-in visit to an invitation path (/i&...) home', async () => {
    const page = await pages.open(PHONE, token)
    await pages.go(page, '/i&inviteCode=ABC')
    await page.waitForFunction(() => window.location.hash === '#/')
  })
})
