import type { FastifyInstance, FastifyReply } from 'fastify'
import { Type, type Static, type TProperties, type TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { Amount, FAILURE_CODE, SymbolText, toDecimal } from '@tradegate/shared'
import type { UploadedFile } from '../api/handler'
import { Refusal, refuse } from '../api/refusal'
import type { KycApplication } from '../accounts/kyc-handlers'
import { UPLOADS_PATH } from '../content/upload-handlers'
import type { FeedHub } from '../feed/feed-hub'
import type { SymbolTick } from '../markets/market'
import type { Cashier } from '../money/cashier'
import { publicRequest } from '../money/cashier'
import type { SandboxState } from '../state'
import type { CallCounter, FaultPlan } from './faults'

// The sandbox's own control calls under /sandbox/*, for tests and demos; the gateway never forwards them.

const UserReference = {
  userId: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
}
const Strict = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false })
const Review = Strict({ id: Type.Integer({ minimum: 1 }), approve: Type.Boolean() })

const SCHEMAS = {
  deposit: Strict({
    ...UserReference,
    coin: Type.String({ pattern: '^[a-zA-Z0-9]{1,16}$' }),
    amount: Amount({ scale: { field: 'coin', kind: 'coin' } }),
  }),
  lastCode: Strict({ to: Type.String({ minLength: 3, maxLength: 120 }) }),
  price: Strict({ symbol: SymbolText, price: Amount({ scale: { field: 'symbol', kind: 'spotPrice' } }) }),
  fail: Strict({
    count: Type.Integer({ minimum: 1, maximum: 100_000 }),
    mode: Type.Union([
      Type.Literal('error'),
      Type.Literal('hang'),
      Type.Literal('status503'),
      Type.Literal('reset'),
    ]),
    path: Type.Optional(Type.String({ pattern: '^/api/[A-Za-z0-9/:_-]{1,200}$' })),
  }),
  expire: Strict(UserReference),
  review: Review,
  kycReview: Strict({ userId: Type.String({ pattern: '^[0-9]{1,19}$' }), approve: Type.Boolean() }),
  settings: Type.Object({}),
  upload: Strict({ id: Type.String({ maxLength: 100 }) }),
}

export interface ControlDependencies {
  state: SandboxState
  cashier: Cashier
  hub: FeedHub
  faults: FaultPlan
  calls: CallCounter
  kycApplications: Map<string, KycApplication>
  uploads: Map<string, UploadedFile>
  onPriceSet: (tick: SymbolTick) => void
}

type ControlRoute = <S extends TSchema>(url: string, schema: S, run: (input: Static<S>) => unknown) => void

/** Routes whose input is checked against a schema and whose answer is the upstream's envelope. */
interface ControlRoutes {
  post: ControlRoute
  get: ControlRoute
}

export function registerControl(app: FastifyInstance, deps: ControlDependencies): void {
  const routes: ControlRoutes = {
    post: (url, schema, run) => {
      app.post(url, (request, reply) => answer(reply, () => run(checked(schema, request.body ?? {}))))
    },
    get: (url, schema, run) => {
      app.get(url, (request, reply) => answer(reply, () => run(checked(schema, request.query ?? {}))))
    },
  }
  registerUserControl(routes, deps)
  registerMarketControl(routes, deps)
  registerFaultControl(routes, deps)
  registerReviewControl(routes, deps)
  serveUploads(app, deps.uploads)
}

/** Deposits, sent codes, session expiry and the sandbox's settings and ledger audit. */
function registerUserControl({ post, get }: ControlRoutes, { state, cashier }: ControlDependencies): void {
  const { users } = state
  post('/sandbox/deposit', SCHEMAS.deposit, (input) => {
    const user = users.find(input)
    return publicRequest(
      cashier.deposit(user, input.coin.toLowerCase(), toDecimal(input.amount), 'simulated deposit'),
    )
  })

  get('/sandbox/last-code', SCHEMAS.lastCode, ({ to }) => ({
    to,
    code: users.lastCode(to) ?? refuse('noCodeSent'),
  }))

  post('/sandbox/settings', SCHEMAS.settings, (patch) => {
    const result = state.settings.patch(patch)
    if (!result.ok) throw new Refusal('invalidParameter', result.error)
    return state.settings.current
  })

  post('/sandbox/expire', SCHEMAS.expire, (input) => {
    const user = users.find(input)
    const expired = users.expireSessions(user.id)
    state.publish('USER_STATUS', user.id, { status: 'expired' })
    return { userId: user.id, expired }
  })

  get('/sandbox/audit', Type.Object({}), () => state.ledger.audit())
}

/** Setting a price and pausing, resuming or dropping the feed. */
function registerMarketControl(
  { post }: ControlRoutes,
  { state, hub, onPriceSet }: ControlDependencies,
): void {
  post('/sandbox/price', SCHEMAS.price, (input) => {
    const tick = state.market.setPrice(input.symbol, toDecimal(input.price))
    onPriceSet(tick)
    return { symbol: tick.symbol, price: tick.price.toFixed() }
  })

  post('/sandbox/feed/pause', Type.Object({}), () => (hub.pause(), { paused: true }))
  post('/sandbox/feed/resume', Type.Object({}), () => (hub.resume(), { paused: false }))
  post('/sandbox/feed/drop', Type.Object({}), () => ({ dropped: hub.dropAll() }))
}

/** Arming and clearing faults, and the count of calls each route received. */
function registerFaultControl(
  { post, get }: ControlRoutes,
  { faults, calls, uploads }: ControlDependencies,
): void {
  post('/sandbox/fail', SCHEMAS.fail, (input) => {
    faults.arm(input.count, input.mode, input.path)
    return input
  })

  // ends every armed fault at once, as a recovered backend would
  post('/sandbox/fail/clear', Type.Object({}), () => (faults.clear(), {}))

  get('/sandbox/calls', Type.Object({}), () => calls.snapshot())
  post('/sandbox/calls/reset', Type.Object({}), () => (calls.reset(), {}))
  // the files the sandbox holds (it forgets the oldest past its bound): an upload's call is counted when
  // it arrives, its file only once its whole body has
  get('/sandbox/uploads', Type.Object({}), () => ({ stored: uploads.size }))
}

/** The back office's answers to withdrawals, deposits and identity verifications waiting on review. */
function registerReviewControl(
  { post }: ControlRoutes,
  { state, cashier, kycApplications }: ControlDependencies,
): void {
  post('/sandbox/withdraw/review', SCHEMAS.review, ({ id, approve }) =>
    publicRequest(cashier.reviewWithdrawal(id, approve)),
  )

  post('/sandbox/recharge/review', SCHEMAS.review, ({ id, approve }) =>
    publicRequest(cashier.reviewRecharge(id, approve)),
  )

  post('/sandbox/kyc/review', SCHEMAS.kycReview, ({ userId, approve }) => {
    const user = state.users.find({ userId })
    const application = kycApplications.get(userId)
    if (!application || user.kycStatus !== 'pending') return refuse('noPendingKyc')
    if (approve) user.kycLevel = application.level
    user.kycStatus = approve ? 'approved' : 'rejected'
    kycApplications.delete(userId)
    state.messages.post(
      userId,
      approve ? 'kycApproved' : 'kycRejected',
      `Identity verification level ${application.level}`,
    )
    state.publish('USER_STATUS', userId, { kycStatus: user.kycStatus, kycLevel: user.kycLevel })
    return { kycStatus: user.kycStatus, kycLevel: user.kycLevel }
  })
}

function serveUploads(app: FastifyInstance, uploads: Map<string, UploadedFile>): void {
  app.get(`${UPLOADS_PATH}/:id`, (request, reply) => {
    const { id } = checked(SCHEMAS.upload, request.params)
    const file = uploads.get(id)
    if (!file) return reply.code(404).send({ code: 404, msg: 'notFound' })
    return reply.type(file.mimetype || 'application/octet-stream').send(file.bytes)
  })
}

function checked<S extends TSchema>(schema: S, value: unknown): Static<S> {
  if (Value.Check(schema, value)) return value as Static<S>
  const first = Value.Errors(schema, value)[0]
  throw new Refusal('invalidParameter', `${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`)
}

function answer(reply: FastifyReply, run: () => unknown) {
  try {
    return reply.send({ code: 200, msg: 'success', data: run() })
  } catch (error) {
    if (error instanceof Refusal) return reply.code(400).send({ code: FAILURE_CODE, msg: error.message })
    throw error
  }
}
