import { cpSync, mkdirSync, rmSync } from 'node:fs'
import net from 'node:net'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { Decimal } from 'decimal.js'
import type { FastifyInstance } from 'fastify'
import { buildGateway } from '../../../gateway/src/app'
import { configWith } from '../../../gateway/src/config'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../gateway/sandbox/app'
import {
  adoptChildGroups,
  commandLine,
  ownDir,
  ownTempDir,
} from '../../../gateway/test/support/owned-processes'
import { BROWSER_WAIT_MS } from './wait'

// A real sandbox and gateway in this process, a TCP relay in front of the gateway (so a test can cut
// the browser's connections), and Debian's Chromium.

export const PHONE = { width: 390, height: 844 }
export const DESKTOP = { width: 1440, height: 900 }
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../.artifacts/screenshots/', import.meta.url))
const WEB_DIST = fileURLToPath(new URL('../../dist', import.meta.url))

export interface Relay {
  port: number
  /** socket upgrade requests (GET /ws/…) that reached the relay, refused ones included */
  readonly socketAttempts: number
  /** destroys every open connection, as a dropped network would */
  cutAll(): number
  /** while on, every new connection is closed after its first request, as a gateway that is gone */
  refuse(on: boolean): void
  close(): Promise<void>
}

/** A TCP relay to a local port that a test can cut; it counts the socket upgrades it sees. */
export async function startRelay(targetPort: number): Promise<Relay> {
  const open = new Set<net.Socket>()
  let refusing = false
  let socketAttempts = 0
  const server = net.createServer((client) => {
    client.once('data', (first: Buffer) => {
      if (first.toString('latin1', 0, 8) === 'GET /ws/') socketAttempts++
      if (refusing) client.destroy()
    })
    if (refusing) {
      open.add(client)
      client.on('close', () => open.delete(client))
      client.on('error', () => undefined)
      return
    }
    const upstream = net.connect(targetPort, '127.0.0.1')
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => undefined)
    }
    client.pipe(upstream).pipe(client)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as net.AddressInfo).port,
    get socketAttempts() {
      return socketAttempts
    },
    refuse(on) {
      refusing = on
    },
    cutAll() {
      const count = open.size
      for (const socket of open) socket.destroy()
      return count
    },
    close() {
      for (const socket of open) socket.destroy()
      return new Promise((done) => server.close(() => done()))
    },
  }
}

export interface Stack {
  /** the app as the browser opens it, through the relay */
  url: string
  sandbox: Sandbox
  gateway: FastifyInstance
  relay: Relay
  /** every /api request the gateway received, in order */
  apiRequests: string[]
  /** the stack's own copy of the built client, which the gateway serves */
  webDist: string
  /** calls a sandbox control endpoint and returns its data */
  control<T = unknown>(path: string, body?: unknown): Promise<T>
  close(): Promise<void>
}

/** `secondPeriodSeconds` lets a test settle second contracts in a few seconds instead of 30. */
export type StackOptions = Pick<SandboxOptions, 'secondPeriodSeconds'>

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  // a private copy, so a rebuild by another test run cannot pull files from under a loaded page
  const webDist = ownTempDir('tradegate-web-')
  cpSync(WEB_DIST, webDist, { recursive: true })
  const sandbox = await startSandbox({ port: 0, seed: 20_260_101, tickMs: 150, ...options })
  const gateway = await buildGateway(
    configWith({
      PORT: 0,
      HOST: '127.0.0.1',
      UPSTREAM_URL: sandbox.url,
      WEB_DIST: webDist,
      LOG_LEVEL: 'silent',
      REDIS_URL: '',
      RATE_LIMIT_PER_MINUTE: 100_000,
    }),
    // a busy test machine stalls the loop for seconds; the overload guard would refuse the app's files
    { loadShedding: false },
  )
  const apiRequests: string[] = []
  gateway.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/')) apiRequests.push(request.url)
  })
  await gateway.listen({ port: 0, host: '127.0.0.1' })
  const relay = await startRelay((gateway.server.address() as net.AddressInfo).port)
  return {
    url: `http://127.0.0.1:${relay.port}`,
    sandbox,
    gateway,
    relay,
    apiRequests,
    webDist,
    async control<T>(path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${sandbox.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const answer = (await response.json()) as { code?: unknown; data?: T }
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`)
      return (answer && typeof answer === 'object' && 'data' in answer ? answer.data : answer) as T
    },
    async close() {
      await relay.close()
      await gateway.close()
      await sandbox.close()
      rmSync(webDist, { recursive: true, force: true })
    },
  }
}

/** Without the background-networking flags Chromium keeps reaching for hosts this machine cannot reach. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const CHROMIUM = '/usr/bin/chromium'

export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  adoptChromium()
  return browser
}

/**
 * Registers the Chromium just started (Playwright starts it in a process group of its own and ends
 * it on close) with its profile folder, so that the teardown ends them when a killed worker cannot.
 */
export function adoptChromium(): void {
  // /usr/bin/chromium is Debian's launcher script, which usually execs /usr/lib/chromium/chromium
  for (const pid of adoptChildGroups((command) => /(^|\s)\S*\/chromium(\s|$)/.test(command))) {
    const profile = /--user-data-dir=(\S+)/.exec(commandLine(pid))?.[1]
    if (profile) ownDir(profile)
  }
}

export interface OpenedPage {
  context: BrowserContext
  page: Page
  /** uncaught page errors; a test asserts there are none */
  errors: string[]
  /** requests that failed or were answered with an error status (method and path), printed when a test fails */
  failedRequests: string[]
}

export type Viewport = { width: number; height: number }

/** `locale` is the browser's language (navigator.languages), e.g. to see which one a first visit picks. */
function newContext(browser: Browser, viewport: Viewport, locale?: string): Promise<BrowserContext> {
  return browser.newContext({
    viewport,
    deviceScaleFactor: 1,
    hasTouch: viewport === PHONE,
    ...(locale ? { locale } : {}),
  })
}

/** A new page in `context`, its uncaught errors collected. */
export async function pageIn(context: BrowserContext): Promise<OpenedPage> {
  const page = await context.newPage()
  const errors: string[] = []
  const failedRequests: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  // the path without its query, which may carry a password or a code (tardPwdSet's do)
  const named = (url: string) => new URL(url).pathname
  page.on('requestfailed', (request) =>
    failedRequests.push(
      `${request.method()} ${named(request.url())}: ${request.failure()?.errorText ?? 'failed'}`,
    ),
  )
  page.on('response', (response) => {
    if (response.status() >= 400)
      failedRequests.push(`${response.request().method()} ${named(response.url())}: ${response.status()}`)
  })
  return { context, page, errors, failedRequests }
}

export async function openPage(browser: Browser, viewport: Viewport, locale?: string): Promise<OpenedPage> {
  return pageIn(await newContext(browser, viewport, locale))
}

/** A browser context already signed in with `token`, in English. */
export async function signedInContext(
  browser: Browser,
  viewport: Viewport,
  token: string,
): Promise<BrowserContext> {
  const context = await newContext(browser, viewport)
  // English pictures whatever the browser's own language
  await context.addInitScript((satoken) => {
    localStorage.setItem('_token', satoken)
    localStorage.setItem('_language', 'en')
  }, token)
  return context
}

/** A setUp for openSignedInPage: the app in `code` instead of English. */
export function inLanguage(code: string): (context: BrowserContext) => Promise<void> {
  return async (context) => {
    await context.addInitScript((language) => localStorage.setItem('_language', language), code)
  }
}

/**
 * A page in a new context signed in with `token` (see signedInContext); `setUp` runs on the context
 * before the page opens, e.g. to install a clock or grant a permission.
 */
export async function openSignedInPage(
  browser: Browser,
  viewport: Viewport,
  token: string,
  setUp?: (context: BrowserContext) => Promise<void>,
): Promise<OpenedPage> {
  const context = await signedInContext(browser, viewport, token)
  await setUp?.(context)
  return pageIn(context)
}

/** Resolves once the page's fonts are in and two frames have painted since: a picture of what settled. */
export async function painted(page: Page): Promise<void> {
  await page.evaluate(
    'document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))',
  )
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  return `${SCREENSHOT_DIR}${name}.png`
}

export const TEST_PASSWORD = 'secret-pass-1'

interface Envelope<T> {
  code: number | string
  msg: string
  data: T
}

/** One call through the gateway as the client makes it; throws on a refused answer. */
export async function callApi<T>(stack: Stack, path: string, init: RequestInit = {}, token = ''): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(token ? { satoken: token } : {}), ...init.headers },
  })
  const envelope = (await response.json()) as Envelope<T>
  // the upstream refuses with a code of 0 or less; the gateway refuses with an HTTP status
  if (!response.ok || Number(envelope.code) <= 0)
    throw new Error(`${path}: ${response.status} ${envelope.msg}`)
  return envelope.data
}

/** A POST of `body` as JSON through the gateway, as the client sends one; throws on a refused answer. */
export function postApi<T>(stack: Stack, path: string, body: unknown, token = ''): Promise<T> {
  return callApi<T>(stack, path, { method: 'POST', body: JSON.stringify(body) }, token)
}

/** Registers an account over HTTP and deposits 2500 usdt into it; returns its session token. */
export async function createFundedAccount(stack: Stack): Promise<string> {
  return (await createFundedUser(stack)).token
}

/** Registers an account over HTTP and deposits `usdt` into it; returns its username and session token. */
export async function createFundedUser(
  stack: Stack,
  usdt = '2500',
): Promise<{ email: string; token: string }> {
  const email = uniqueEmail()
  await callApi(stack, `/api/user/sendEmailCode?codeType=register&email=${encodeURIComponent(email)}`, {
    method: 'POST',
  })
  const { code } = await stack.control<{ code: string }>(`/sandbox/last-code?to=${encodeURIComponent(email)}`)
  const session = await postApi<{ satoken: string }>(stack, '/api/user/register', {
    type: 'email',
    username: email,
    password: TEST_PASSWORD,
    code,
    inviteCode: stack.sandbox.inviteCode,
  })
  await stack.control('/sandbox/deposit', { username: email, coin: 'usdt', amount: usdt })
  return { email, token: session.satoken }
}

/** Sets the fund password of a user with a bound e-mail, with the code the default settings ask for. */
export async function setFundPassword(stack: Stack, user: { email: string; token: string }, pwd: string) {
  const to = encodeURIComponent(user.email)
  await callApi(stack, `/api/user/sendEmailCode?codeType=fundPassword&email=${to}`, { method: 'POST' })
  const { code } = await stack.control<{ code: string }>(`/sandbox/last-code?to=${to}`)
  await callApi(stack, `/api/user/tardPwdSet?pwd=${pwd}&code=${code}`, { method: 'POST' }, user.token)
}

/** Runs `body` with withdrawals open all day, whatever the hour of the run, then puts the sandbox's window back. */
export async function withWithdrawalsAllDay<T>(stack: Stack, body: () => Promise<T>): Promise<T> {
  const window = async (startTime: string, endTime: string) => {
    await stack.control('/sandbox/settings', { WITHDRAWAL_SETTING: { startTime, endTime } })
    // the settings are cached by the gateway
    await stack.gateway.responseCache.purge()
  }
  await window('00:00:00', '23:59:59')
  try {
    return await body()
  } finally {
    await window('11:00:00', '23:00:00')
  }
}

/**
 * A funded account (as createFundedAccount) with `usdt` moved onto its contract account; returns its
 * token. More than the usual 2500 usdt is deposited first when `usdt` asks for it.
 */
export async function createContractAccount(stack: Stack, usdt: string): Promise<string> {
  const deposit = Decimal.max('2500', usdt).toFixed()
  const { token } = await createFundedUser(stack, deposit)
  await postApi(
    stack,
    '/api/asset/transferFunds',
    { coin: 'usdt', from: 'platform', to: 'contract', amount: usdt },
    token,
  )
  return token
}

let counter = 0
/** A username no other test of this run uses. */
export function uniqueEmail(): string {
  return `user${Date.now().toString(36)}${(counter++).toString(36)}@example.com`
}

/**
 * vitest's vi.waitFor with the browser tests' one bound: retries an async check until it stops
 * throwing, and returns what it returned. vitest is loaded when a test first calls it, so the
 * lighthouse script, which runs outside vitest, can still import this file.
 */
export async function waitFor<T>(check: () => Promise<T>, timeoutMs = BROWSER_WAIT_MS): Promise<T> {
  const { vi } = await import('vitest')
  return vi.waitFor(check, { timeout: timeoutMs, interval: 100 })
}

/** Signs up through the register screen with the sandbox's root invite code. */
export async function registerThroughUi(
  page: Page,
  stack: Stack,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${stack.url}/#/register`)
  await page.locator('input[name=username]').fill(email)
  await page.getByTestId('send-code').click()
  const { code } = await waitFor(() =>
    stack.control<{ code: string }>(`/sandbox/last-code?to=${encodeURIComponent(email)}`),
  )
  await page.locator('input[name=code]').fill(code)
  await page.locator('input[name=password]').fill(password)
  await page.locator('input[name=confirm]').fill(password)
  await page.locator('input[name=inviteCode]').fill(stack.sandbox.inviteCode)
  await page.locator('input[name=agree]').check()
  await page.locator('form button[type=submit]').click()
  await page.getByTestId('registration-credit').waitFor()
}

/** Signs up through the register screen and deposits `usdt`; returns the account and its session token. */
export async function registerFundedThroughUi(
  browser: Browser,
  stack: Stack,
  usdt: string,
): Promise<{ email: string; token: string }> {
  const email = uniqueEmail()
  const { page, context } = await openPage(browser, PHONE)
  await registerThroughUi(page, stack, email, TEST_PASSWORD)
  const token = String(await page.evaluate("localStorage.getItem('_token')"))
  await context.close()
  await stack.control('/sandbox/deposit', { username: email, coin: 'usdt', amount: usdt })
  return { email, token }
}

export async function loginThroughUi(
  page: Page,
  stack: Stack,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${stack.url}/#/login`)
  await page.locator('input[name=username]').fill(email)
  await page.locator('input[name=password]').fill(password)
  await page.locator('form button[type=submit]').click()
  await page.waitForFunction(() => window.location.hash === '#/' && localStorage.getItem('_token') !== null)
}
