import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { DESKTOP, PHONE, screenshotPath, signedInContext, uniqueEmail } from './stack'
import { TEST_PASSWORD, setUpSuite } from './suite'

// Opens every route of the router, signed in, at both sizes; keeps a screenshot of each as an artifact.

const routesSource = readFileSync(new URL('../../src/app/routes.ts', import.meta.url), 'utf8')
const PATHS = [...routesSource.matchAll(/path: '([^']+)'/g)].map((match) => match[1] as string)

const suite = setUpSuite()
let token = ''

interface Envelope<T> {
  code: number | string
  msg: string
  data: T
}

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${suite.stack.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(token ? { satoken: token } : {}), ...init.headers },
  })
  const envelope = (await response.json()) as Envelope<T>
  if (Number(envelope.code) <= 0) throw new Error(`${path}: ${envelope.msg}`)
  return envelope.data
}

/** A funded account made over HTTP, so the screens have data to show. */
async function createAccount(): Promise<void> {
  const email = uniqueEmail()
  await api(`/api/user/sendEmailCode?codeType=register&email=${encodeURIComponent(email)}`, {
    method: 'POST',
  })
  const { code } = await suite.stack.control<{ code: string }>(
    `/sandbox/last-code?to=${encodeURIComponent(email)}`,
  )
  const session = await api<{ satoken: string }>('/api/user/register', {
    method: 'POST',
    body: JSON.stringify({
      type: 'email',
      username: email,
      password: TEST_PASSWORD,
      code,
      inviteCode: suite.stack.sandbox.inviteCode,
    }),
  })
  token = session.satoken
  await suite.stack.control('/sandbox/deposit', { username: email, coin: 'usdt', amount: '2500' })
}

/** Screens that send a direct visit elsewhere on purpose: /setpwd needs the code entered on /forget. */
const REDIRECTS: Record<string, string> = { '/setpwd': '/forget' }

/** A readable file name for a route: /floworder/confirm/:id -> floworder-confirm-id. */
function screenName(path: string): string {
  return path === '/' ? 'home' : path.replace(/^\//, '').replace(/[/:]+/g, '-')
}

beforeAll(async () => {
  await createAccount()
})

describe('every screen', () => {
  it('has the routes of the specification', () => {
    expect(PATHS).toHaveLength(51)
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
        page.on('pageerror', (error) => errors.push(`${error.message}`))
        for (const path of PATHS) {
          const url = path.replace(':id', '1')
          await page.goto(`${suite.stack.url}/#${url}${path === '/flashExchange' ? '?from=usdt&to=btc' : ''}`)
          await page.locator('.app-main > *:visible').first().waitFor()
          await page.waitForLoadState('networkidle')
          await page
            .locator('.loading-block')
            .first()
            .waitFor({ state: 'detached', timeout: 5000 })
            .catch(() => undefined)
          // let the toasts of the previous screen go, so each picture shows its own screen
          await page.waitForTimeout(100)
          const expected = REDIRECTS[url] ?? url
          expect(await page.evaluate(() => window.location.hash), `stayed on ${url}`).toContain(
            `#${expected}`,
          )
          await page.screenshot({ path: screenshotPath(`${label}-${screenName(path)}`) })
        }
        expect(errors).toEqual([])
        await context.close()
      },
      // 51 routes, each waiting for its network to settle, on a shared two-core machine
      240_000,
    )
  }

  it('sends a signed-in visit to an invitation path (/i&...) home', async () => {
    const context = await signedInContext(suite.browser, PHONE, token)
    const page = await context.newPage()
    await page.goto(`${suite.stack.url}/#/i&inviteCode=ABC`)
    await page.waitForFunction(() => window.location.hash === '#/')
    await context.close()
  })
})
