import { isUtf8 } from 'node:buffer'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  CALLS,
  lacksVerificationCode,
  type CallDefinition,
  type CallName,
  type Settings,
  type VerificationCodeRule,
} from '@tradegate/shared'
import { compressPlugin } from '../plugins/external/compress'
import { batchedCounter } from '../plugins/app/metrics'
import { PrecisionSource, checkAmounts, type AmountInput } from './amounts'
import { ResponseCache } from './cache'
import { callSchemaCompiler, prepareCallRoute, type CallRoute } from './call-route'
import { GatewayError } from '../lib/errors'
import { UNDECODABLE_QUERY, decodeUrlEncoded } from '../lib/url-encoded'
import { checkJsonShape, checkNoRepeatedKeys, type ShapeLimits } from './guard'
import type { MultipartLimits } from './multipart'
import { NO_STORE, cacheKeyOf, isForm, proxyCall, type Proxy } from './proxy'
import { checkChineseRule, checkSessionHeader, checkSessionNotEnded } from './request-checks'
import { UploadBudget } from './upload-budget'
import {
  UploadSlots,
  admitUpload,
  readUpload,
  type UploadBody,
  type UploadGate,
  type UploadSlotLimits,
} from './uploads'
import { dropUnreadBody, type DrainLimits } from './unread-body'
import { checkWholeNumbers } from './whole-numbers'
import { checkDefaultNetwork } from './default-network'
import { CachedFastPath } from './cached-fast-path'
import type { TrustFunction } from '../config'

// The REST path: one route per call in the table, each checking, caching and proxying its requests.

export interface ApiOptions {
  cacheMaxEntries: number
  /** CACHE_STALE_IF_ERROR_MS; absent: only the stale window */
  cacheStaleIfErrorMs?: number
  queryMaxParams: number
  bodyMaxDepth: number
  bodyMaxMembers: number
  uploadLimitBytes: number
  /** how long the unread rest of an answered upload is read: silent at most, and in all */
  uploadDrain: DrainLimits
  uploadsPerMinute: number
  uploadsPerUserPerMinute: number
  /** uploads in flight at once per client address, per user and per instance */
  uploadsInFlight: UploadSlotLimits
  /** Fastify's trustProxy, for the fast path's client address; false when not given */
  trustProxy?: boolean | string | TrustFunction
}

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: ResponseCache
    /** the getCoinList answer's body, parsed, read through the response cache: one read serves the
     * amount precisions and the live part's symbol check */
    readCoinList(): Promise<unknown>
  }
  interface FastifyRequest {
    /** the body text as received, kept so escapes the parser removed can still be checked */
    rawBody: string | null
    /** the body bytes as received: what the upstream is sent once every check has passed */
    rawBytes: Buffer | null
    /** an upload's checked parts, rebuilt as the upstream is sent them while they are read */
    uploadForm: UploadBody | null
  }
}

// room for multipart boundaries and text fields on top of the file limit
const MULTIPART_OVERHEAD_BYTES = 256 * 1024
const MULTIPART_LIMITS: Omit<MultipartLimits, 'fileBytes' | 'bodyBytes'> = {
  parts: 24,
  files: 4,
  // text parts are read whole by the Chinese rule, so they get the size of a text field, not of a file
  textPartBytes: 16 * 1024,
}

/** What every route is registered with: the proxy and the checks' own state. */
interface RouteContext {
  proxy: Proxy
  uploads: UploadGate
  precisions: PrecisionSource
  /** the getAllSetting answer, parsed, through the response cache */
  readSettings: () => Promise<unknown>
  multipartLimits: MultipartLimits
  queryMaxParams: number
}

export const apiPlugin = fp<ApiOptions>(
  async (app, options) => {
    const proxy = createProxy(app, options)
    app.decorateRequest('rawBody', null)
    app.decorateRequest('rawBytes', null)
    app.decorateRequest('uploadForm', null)
    app.decorateRequest('uploadSlot', null)
    const uploadSlots = new UploadSlots(options.uploadsInFlight)
    app.decorate('uploadSlots', uploadSlots)
    const routes = (Object.entries(CALLS) as Array<[CallName, CallDefinition]>).map(([name, definition]) =>
      prepareCallRoute(name, definition, options.uploadLimitBytes + MULTIPART_OVERHEAD_BYTES),
    )
    const readCoinList = cachedReader(proxy, routes, 'getCoinList')
    const readSettings = cachedReader(proxy, routes, 'getAllSetting')
    app.decorate('readCoinList', readCoinList)
    const productReaders = {
      finance: cachedReader(proxy, routes, 'financeProducts'),
      proxy: cachedReader(proxy, routes, 'proxyProducts'),
    }
    // a subscription is counted in its product's coin, so the product lists are read beside the coin list
    const precisions = new PrecisionSource({
      load: readCoinList,
      loadProducts: (line) => productReaders[line](),
    })
    // read once before the gateway serves, so the first amounts are already judged by their coin
    app.addHook('onReady', async () => {
      await precisions.current()
    })
    const context: RouteContext = {
      proxy,
      uploads: {
        slots: uploadSlots,
        perAddress: new UploadBudget({
          perMinute: options.uploadsPerMinute,
          redis: app.redis,
          prefix: app.redisPrefix,
          log: app.log,
        }),
        perUser: new UploadBudget({
          perMinute: options.uploadsPerUserPerMinute,
          redis: app.redis,
          prefix: `${app.redisPrefix}user:`,
          log: app.log,
        }),
      },
      precisions,
      readSettings,
      multipartLimits: {
        ...MULTIPART_LIMITS,
        fileBytes: options.uploadLimitBytes,
        bodyBytes: options.uploadLimitBytes + MULTIPART_OVERHEAD_BYTES,
      },
      queryMaxParams: options.queryMaxParams,
    }
    const shape: ShapeLimits = { maxDepth: options.bodyMaxDepth, maxMembers: options.bodyMaxMembers }

    await app.register(async (scope) => {
      await scope.register(compressPlugin)
      addBodyParsers(scope, shape)
      scope.setValidatorCompiler(callSchemaCompiler)
      for (const route of routes) if (!route.multipart) registerCallRoute(scope, context, route)
    })
    await app.register(async (scope) => {
      await scope.register(compressPlugin)
      scope.removeAllContentTypeParsers()
      // split as it arrives within the route's limit and checked part by part (uploads.ts): the route
      // goes on once the parts before the first file have passed, and the rest streams to the upstream
      scope.addContentTypeParser('multipart/form-data', (request, body, done) => {
        readUpload(app, request, body, context.multipartLimits).then(
          (upload) => done(null, upload),
          (error: Error) => done(error, undefined),
        )
      })
      // every answer passes here, so none can leave an upload's unread body to close the connection
      // under its sender: a refusal before the body, part way through it or after parts went upstream,
      // and an answer the upstream gave before the client had sent all of it (a session it has ended)
      scope.addHook('onSend', (request, reply, _payload, done) => {
        dropUnreadBody(request, reply, options.uploadDrain)
        done()
      })
      scope.setValidatorCompiler(callSchemaCompiler)
      for (const route of routes) if (route.multipart) registerCallRoute(scope, context, route)
    })
    installFastPath(app, proxy, routes, options)
  },
  { name: 'api', dependencies: ['metrics', 'health', 'redis', 'upstream'] },
)

/** The response cache, decorated for the live part to share, beside the upstream floor's one client. */
function createProxy(app: FastifyInstance, options: ApiOptions): Proxy {
  const upstream = app.upstream
  const cache = new ResponseCache({
    maxEntries: options.cacheMaxEntries,
    redis: app.redis,
    redisPrefix: app.redisPrefix,
    log: app.log,
    staleIfErrorMs: options.cacheStaleIfErrorMs,
  })
  app.decorate('responseCache', cache)
  return { app, upstream, cache, countCache: batchedCounter(app.metrics.cacheRequests) }
}

/**
 * The cached-GET fast path ahead of Fastify (cached-fast-path.ts), when the gateway has a front door and
 * the parts whose work it repeats: the request log's metrics and line, and the rate limit.
 */
function installFastPath(
  app: FastifyInstance,
  proxy: Proxy,
  routes: readonly CallRoute[],
  options: ApiOptions,
): void {
  if (
    !app.hasDecorator('frontDoor') ||
    !app.hasDecorator('answerEnvelope') ||
    !app.hasDecorator('takeBudgetAhead')
  )
    return
  const pressured = app as FastifyInstance & { isUnderPressure?: () => boolean }
  const fastPath = new CachedFastPath({
    proxy,
    envelope: app.answerEnvelope,
    trustProxy: options.trustProxy ?? false,
    takeBudgetAhead: app.takeBudgetAhead,
    held: () => app.readiness.draining || (pressured.isUnderPressure?.() ?? false),
  })
  for (const route of routes) fastPath.add(route)
  app.frontDoor.answer = (request, response) => fastPath.answer(request, response)
  app.addHook('onReady', async () => fastPath.setOpen(true))
  app.addHook('preClose', async () => fastPath.setOpen(false))
}

/** A cached call's answer (the coin list, a product list), read through the cache as its route reads it. */
function cachedReader(proxy: Proxy, routes: readonly CallRoute[], name: CallName): () => Promise<unknown> {
  const route = routes.find((candidate) => candidate.name === name)!
  return async () => {
    const outcome = await proxy.cache.serve(cacheKeyOf(route.label, '', '|'), route.cache!, () =>
      proxy.upstream.request({ method: 'GET', path: route.label, headers: {}, route: route.label }),
    )
    const body = outcome.answer?.body ?? outcome.upstream?.body
    if (!body) throw new Error(`no answer from ${name}`)
    return JSON.parse(body.toString('utf8'))
  }
}

/** One call's route: its checks in Fastify's lifecycle, then the proxy. */
function registerCallRoute(scope: FastifyInstance, context: RouteContext, route: CallRoute): void {
  const app = context.proxy.app
  scope.route({
    method: route.definition.method,
    url: route.definition.path,
    config: { apiAnswer: true },
    // the call table names each call's method: a HEAD is not one of them, and each such route Fastify adds
    // would be kept for the life of the process (about 6 KiB of heap a route)
    exposeHeadRoute: false,
    bodyLimit: route.bodyLimit,
    schema: route.schema,
    // before the body is read: a bad token, a body where none belongs, and for uploads a missing
    // session or a spent budget
    onRequest: route.multipart
      ? async (request, reply) => {
          reply.header('cache-control', NO_STORE)
          checkQueryDecoded(request)
          checkSessionHeader(app, request, route.definition.auth)
          if (route.definition.auth) await checkSessionNotEnded(app, request)
          await admitUpload(app, context.uploads, request, reply)
        }
      : [
          (request, reply, done) => {
            if (!route.cache) reply.header('cache-control', NO_STORE)
            checkQueryDecoded(request)
            checkSessionHeader(app, request, false)
            if (!route.definition.body && carriesBody(request)) {
              // unread, so the connection ends with the answer rather than drain what was sent
              reply.header('connection', 'close')
              throw new GatewayError(400, 'badRequest', 'body')
            }
            done()
          },
          // the only check that may wait (on Redis), so only the calls that need a session pay for it
          ...(route.definition.auth ? [(request: FastifyRequest) => checkSessionNotEnded(app, request)] : []),
        ],
    // the Chinese rule answers before the schema does, and so does the money rule
    preValidation:
      route.multipart ||
      route.amountFields.length > 0 ||
      route.definition.network ||
      route.definition.verificationCode
        ? async (request) => {
            checkChineseRule(app, route, request, context.queryMaxParams)
            checkWholeNumbers(route.wholeFields, request.body, jsonText(request))
            if (route.amountFields.length > 0)
              checkAmounts(route.amountFields, amountInput(request), await context.precisions.current())
            if (route.definition.network)
              checkDefaultNetwork(
                route.definition.network,
                request.query as Record<string, unknown>,
                await context.readSettings().catch(() => null),
              )
            if (route.definition.verificationCode)
              await checkVerificationCode(route.definition.verificationCode, request, context.readSettings)
          }
        : (request, _reply, done) => {
            checkChineseRule(app, route, request, context.queryMaxParams)
            checkWholeNumbers(route.wholeFields, request.body, jsonText(request))
            done()
          },
    handler: (request, reply) => proxyCall(context.proxy, route, request, reply),
  })
}

/**
 * A call the upstream checks a code on is refused without one, under the settings the gateway serves;
 * settings it cannot read count as asking, so a failing settings call never waves a request through.
 */
type SettingsAnswer = { data?: { VERIFY_CODE_SETTING?: Partial<Settings['VERIFY_CODE_SETTING']> | null } }

async function checkVerificationCode(
  rule: VerificationCodeRule,
  request: FastifyRequest,
  readSettings: RouteContext['readSettings'],
): Promise<void> {
  const query = request.query as Record<string, unknown>
  // a code sent, or one this request never needs, wants no settings read
  if (!lacksVerificationCode(rule, query, null)) return
  const answer = (await readSettings().catch(() => null)) as SettingsAnswer | null
  const switches = answer?.data?.VERIFY_CODE_SETTING
  if (lacksVerificationCode(rule, query, typeof switches === 'object' ? switches : null))
    throw new GatewayError(400, 'codeRequired', `query.${rule.field}`)
}

/** A query string the one decoder could not read (an escape that is not UTF-8) is refused whole, as a form body is. */
function checkQueryDecoded(request: FastifyRequest): void {
  if (request.query === UNDECODABLE_QUERY) throw new GatewayError(400, 'badRequest', 'query')
}

/** What the money rule reads: the parsed query and body, and a JSON body's text for its numbers as written. */
function amountInput(request: FastifyRequest): AmountInput {
  return {
    query: request.query as Record<string, unknown>,
    body: request.body,
    rawJson: jsonText(request),
  }
}

/** A JSON body's text as received; null for a form, whose values are all text. */
function jsonText(request: FastifyRequest): string | null {
  return isForm(request) ? null : request.rawBody
}

/**
 * True when the request says a body follows. A call without a body refuses one rather than drop it:
 * the client meant something by it, and the upstream would never see it.
 */
function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/**
 * Keeps a body's bytes for the upstream and its text for the Chinese rule; bytes that are not UTF-8 are
 * refused, since the text checked would not be the text the upstream reads.
 */
function keepRawBody(request: FastifyRequest, bytes: Buffer): string | null {
  if (!isUtf8(bytes)) return null
  request.rawBytes = bytes
  request.rawBody = bytes.toString('utf8')
  return request.rawBody
}

/** JSON and form bodies, kept as received and refused by shape before they are parsed. */
function addBodyParsers(scope: FastifyInstance, shape: ShapeLimits): void {
  scope.removeAllContentTypeParsers()
  const parseJson = scope.getDefaultJsonParser('error', 'error')
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = keepRawBody(request, body as Buffer)
    if (raw === null) return done(new GatewayError(400, 'badRequest', 'body'), undefined)
    if (raw.length === 0) return done(null, undefined)
    let members: number
    try {
      members = checkJsonShape(raw, shape)
    } catch (error) {
      return done(error as GatewayError, undefined)
    }
    parseJson(request, raw, (error, parsed) => {
      if (error) return done(error, undefined)
      try {
        checkNoRepeatedKeys(parsed, members)
      } catch (refusal) {
        return done(refusal as GatewayError, undefined)
      }
      done(null, parsed)
    })
  })
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (request, body, done) => {
      const raw = keepRawBody(request, body as Buffer)
      if (raw === null) return done(new GatewayError(400, 'badRequest', 'body'), undefined)
      // a form is flat: its pairs are its members
      const pairs = raw.length === 0 ? 0 : raw.split('&', shape.maxMembers + 1).length
      if (pairs > shape.maxMembers) return done(new GatewayError(400, 'badRequest', 'body'), undefined)
      const values = decodeUrlEncoded(raw)
      if (values === null) return done(new GatewayError(400, 'badRequest', 'body'), undefined)
      done(null, values)
    },
  )
}
