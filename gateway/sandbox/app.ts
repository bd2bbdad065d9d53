import { randomInt } from 'node:crypto'
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import multipart from '@fastify/multipart'
import { FAILURE_CODE, LIMITS } from '@tradegate/shared'
import { NoticeLog } from './accounts/notices'
import { accountHandlers } from './accounts/handlers'
import type { KycApplication } from './accounts/kyc-handlers'
import { ROOT_INVITE_CODE, UserDirectory } from './accounts/users'
import type { Handlers, UploadedFile } from './api/handler'
import { registerCalls } from './api/register-calls'
import { contentHandlers } from './content/handlers'
import { MessageBox } from './content/messages'
import { SettingsStore } from './content/settings'
import { SandboxClock, registerClockControl } from './control/clock'
import { CallCounter, FaultPlan } from './control/faults'
import { registerControl } from './control/routes'
import { FeedHub } from './feed/feed-hub'
import { attachFeedServer } from './feed/feed-server'
import { MarketFeed } from './feed/market-feed'
import { marketHandlers } from './markets/handlers'
import { secondPeriods } from './markets/listings'
import { Market, type SymbolTick } from './markets/market'
import { Cashier } from './money/cashier'
import { addressBookHandlers } from './money/address-book'
import { moneyHandlers } from './money/handlers'
import { Investments } from './money/investments'
import { Ledger } from './money/ledger'
import { ProfitBook } from './money/profits'
import type { SandboxState } from './state'
import { ContractDesk } from './trading/contracts'
import { CopyDesk } from './trading/copy'
import { tradingHandlers } from './trading/handlers'
import { optionHandlers } from './trading/option-handlers'
import { OptionDesk } from './trading/options'
import { SecondDesk } from './trading/second'
import { SpotDesk } from './trading/spot'

// The sandbox upstream: a stand-in exchange serving the whole call table and a live market feed.

export const DEFAULT_TICK_MS = 150
export const DEFAULT_FEED_TOKEN = 'sandbox-feed-token'
const HEARTBEAT_MS = 5000
const BODY_LIMIT_BYTES = 1024 * 1024

export interface SandboxOptions {
  port?: number
  host?: string
  /** same seed, same prices; random when left out */
  seed?: number
  tickMs?: number
  feedToken?: string
  logger?: FastifyServerOptions['logger']
  /** tests may move time forward; defaults to Date.now */
  clock?: () => number
  /** second-contract period lengths in seconds; tests use short ones */
  secondPeriodSeconds?: number[]
}

export interface Sandbox {
  url: string
  port: number
  seed: number
  /** the invite code that lets the first user register */
  inviteCode: string
  state: SandboxState
  hub: FeedHub
  close(): Promise<void>
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandboxClock = new SandboxClock(options.clock ?? Date.now)
  const clock = sandboxClock.now
  const seed = options.seed ?? randomInt(1, 2 ** 31)
  const tickMs = options.tickMs ?? DEFAULT_TICK_MS
  const hub = new FeedHub(clock)
  const state = createState(hub, seed, tickMs, clock)
  const desks = createDesks(state, seed, options.secondPeriodSeconds)
  const kycApplications = new Map<string, KycApplication>()
  const uploads = new Map<string, UploadedFile>()
  const handlers: Handlers = {
    ...accountHandlers(state, kycApplications),
    ...marketHandlers(state, options.secondPeriodSeconds),
    ...moneyHandlers(state, desks.cashier, desks.investments),
    ...addressBookHandlers(state),
    ...tradingHandlers(desks),
    ...optionHandlers(desks.optionDesk),
    ...contentHandlers(state, uploads),
  }

  const app = await createApp(options.logger)
  const faults = new FaultPlan()
  const calls = new CallCounter()
  injectFaults(app, faults, calls)
  answerErrors(app)
  registerCalls(app, handlers, state.users, state.settings)

  const marketFeed = new MarketFeed(state.market, hub, clock)
  const settle = (ticks: readonly SymbolTick[]) => {
    settleDesks(desks, ticks, clock())
    marketFeed.publish(ticks)
  }
  registerControl(app, {
    state,
    cashier: desks.cashier,
    hub,
    faults,
    calls,
    kycApplications,
    uploads,
    onPriceSet: (tick) => settle([tick]),
  })
  registerClockControl(app, sandboxClock, () => settle([]))

  const feedServer = attachFeedServer({
    server: app.server,
    hub,
    marketFeed,
    market: state.market,
    feedToken: options.feedToken ?? DEFAULT_FEED_TOKEN,
    clock,
  })
  const ticker = setInterval(() => {
    try {
      settle(state.market.step())
    } catch (error) {
      app.log.error({ err: error }, 'sandbox tick failed')
    }
  }, tickMs)
  const heartbeat = setInterval(() => hub.heartbeat(), HEARTBEAT_MS)
  const stopTimers = () => {
    clearInterval(ticker)
    clearInterval(heartbeat)
  }

  const { url, port } = await listen(app, options, stopTimers)
  return {
    url,
    port,
    seed,
    inviteCode: ROOT_INVITE_CODE,
    state,
    hub,
    async close() {
      stopTimers()
      await feedServer.close()
      await app.close()
    },
  }
}

function createState(hub: FeedHub, seed: number, tickMs: number, clock: () => number): SandboxState {
  const notices = new NoticeLog(clock)
  const state: SandboxState = {
    clock,
    market: new Market({ seed, tickMs, clock }),
    users: new UserDirectory(clock),
    ledger: new Ledger(
      clock,
      (userId, balance, cause) => hub.publishUser('OWNCOIN', userId, { ...balance, ...cause }),
      notices,
    ),
    settings: new SettingsStore(),
    messages: new MessageBox(clock),
    profits: new ProfitBook(clock),
    publish: (type, userId, data) => hub.publishUser(type, userId, data),
    notices,
  }
  // the house's own account owns the root invite code, so the first user can register
  state.users.create({
    username: 'sandbox-house',
    loginType: 'account',
    password: randomInt(2 ** 47).toString(36),
    invitedBy: null,
    inviteCode: ROOT_INVITE_CODE,
  })
  return state
}

/** Everything that holds orders, requests or holdings and moves on with the market and the clock. */
interface Desks {
  cashier: Cashier
  investments: Investments
  spot: SpotDesk
  contracts: ContractDesk
  second: SecondDesk
  copy: CopyDesk
  optionDesk: OptionDesk
}

function createDesks(state: SandboxState, seed: number, secondPeriodSeconds?: number[]): Desks {
  return {
    cashier: new Cashier(state),
    investments: new Investments(state),
    spot: new SpotDesk(state),
    contracts: new ContractDesk(state),
    second: new SecondDesk(state, secondPeriods(secondPeriodSeconds)),
    copy: new CopyDesk(state, seed),
    optionDesk: new OptionDesk(state),
  }
}

function settleDesks(desks: Desks, ticks: readonly SymbolTick[], now: number): void {
  desks.spot.onTick(ticks)
  desks.contracts.onTick(ticks)
  desks.second.onTick(now)
  desks.optionDesk.onTick(now)
  desks.cashier.onTick(now)
  desks.investments.onTick(now)
}

async function createApp(logger: SandboxOptions['logger']): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? false,
    // request lines would carry passwords and codes that travel in query strings
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 200 },
  })
  await app.register(multipart, { limits: { fileSize: LIMITS.uploadMaxBytes, files: 5, fields: 20 } })
  return app
}

/** Counts every call and plays the faults a test armed for it. */
function injectFaults(app: FastifyInstance, faults: FaultPlan, calls: CallCounter): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    if (!path.startsWith('/api/')) return
    const route = request.routeOptions.url ?? path
    calls.count(route)
    const fault = faults.take(route, path)
    if (fault === 'error') return reply.code(500).send({ code: 500, msg: 'sandboxInjectedError' })
    if (fault === 'status503') return reply.code(503).send({ code: 503, msg: 'sandboxInjectedUnavailable' })
    // a reset call drops its connection unanswered, as a crashed backend would
    if (fault === 'reset') {
      reply.hijack()
      request.raw.socket.destroy()
      return
    }
    // a hung call never answers; closing the sandbox cuts its connection
    if (fault === 'hang') await new Promise(() => {})
  })
}

/** Failures answer in the upstream's envelope: a refusal key under FAILURE_CODE, or a bare 500. */
function answerErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, request, reply) => {
    const status = error.statusCode ?? 500
    if (status >= 500) {
      request.log.error({ err: error }, 'sandbox handler failed')
      return reply.code(500).send({ code: 500, msg: 'internalError' })
    }
    const key =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'invalidJson'
        : error.message
    return reply.code(status).send({ code: FAILURE_CODE, msg: key })
  })
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ code: 404, msg: 'notFound' }))
}

async function listen(
  app: FastifyInstance,
  options: SandboxOptions,
  stopTimers: () => void,
): Promise<{ url: string; port: number }> {
  const host = options.host ?? '127.0.0.1'
  try {
    await app.listen({ port: options.port ?? 0, host })
  } catch (error) {
    stopTimers()
    throw error
  }
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0)
  const urlHost = host.includes(':') ? `[${host}]` : host
  return { url: `http://${urlHost}:${port}`, port }
}
