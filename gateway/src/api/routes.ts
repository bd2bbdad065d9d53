import { isUtf8 } from 'node:buffer'
import { parse as parseQueryString } from 'node:querystring'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { FormData } from 'undici'
import {
  CALLS,
  SIGN_IN_REQUIRED_STATUS,
  TOKEN_HEADER,
  TOKEN_PATTERN,
  callPath,
  type CallDefinition,
  type CallName,
} from '@tradegate/shared'
import { acceptedEncoding, compressPlugin } from '../plugins/external/compress'
import { PrecisionSource, checkAmounts, type AmountInput } from './amounts'
import { ResponseCache, type CacheOutcome } from './cache'
import { callSchemaCompiler, canonicalQuery, prepareCallRoute, type CallRoute } from './call-route'
import { GatewayError } from '../lib/errors'
import { sessionEndOf, type SessionEnd } from './session-end'
import { checkJsonShape, checkNoRepeatedKeys, checkRawText, chineseDetail, type ShapeLimits } from './guard'
import { boundaryOf, parseMultipart, type MultipartLimits } from './multipart'
import { UploadBudget } from './upload-budget'
import { checkWholeNumbers } from './whole-numbers'
import { Upstream, UpstreamError, type UpstreamRequest, type UpstreamResponse } from './upstream'

// The REST path: one route per call in the table, each checking, caching and proxying its requests.

export interface ApiOptions {
  upstreamUrl: string
  connectTimeoutMs: number
  responseTimeoutMs: number
  getRetries: number
  cacheMaxEntries: number
  queryMaxParams: number
  bodyMaxDepth: number
  bodyMaxMembers: number
  uploadLimitBytes: number
  uploadsPerMinute: number
}

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: ResponseCache
    /** the one HTTP client to the upstream, shared by the REST path and the live part */
    upstream: Upstream
    /** the getCoinList answer's body, parsed, read through the response cache: one read serves the
     * amount precisions and the live part's symbol check */
    readCoinList(): Promise<unknown>
    /** set by the live part: ends a session on every instance */
    sessionEnds?: { end(token: string, how: SessionEnd): Promise<void> }
  }
  interface FastifyRequest {
    /** the body text as received, kept so escapes the parser removed can still be checked */
    rawBody: string | null
    /** the body bytes as received: what the upstream is sent once every check has passed */
    rawBytes: Buffer | null
    /** an upload's parts, read and checked before validation */
    uploadForm: FormData | null
  }
}

const LANGUAGE_VALUE = /^[A-Za-z0-9_-]{1,35}$/
// room for multipart boundaries and text fields on top of the file limit
const MULTIPART_OVERHEAD_BYTES = 256 * 1024
const MULTIPART_LIMITS: Omit<MultipartLimits, 'fileBytes'> = {
  parts: 24,
  files: 4,
  // text parts are read whole by the Chinese rule, so they get the size of a text field, not of a file
  textPartBytes: 16 * 1024,
}
const NO_STORE = 'no-store'

interface ForwardedBody {
  body: Buffer | FormData | undefined
  contentType: string | undefined
}

export const apiPlugin = fp<ApiOptions>(
  async (app, options) => {
    const upstream = new Upstream(
      {
        url: options.upstreamUrl,
        connectTimeoutMs: options.connectTimeoutMs,
        responseTimeoutMs: options.responseTimeoutMs,
        getRetries: options.getRetries,
      },
      app.metrics,
    )
    const cache = new ResponseCache({
      maxEntries: options.cacheMaxEntries,
      redis: app.redis,
      redisPrefix: app.redisPrefix,
      log: app.log,
    })
    app.decorate('responseCache', cache)
    app.decorate('upstream', upstream)
    app.decorateRequest('rawBody', null)
    app.decorateRequest('rawBytes', null)
    app.decorateRequest('uploadForm', null)
    const uploadBudget = new UploadBudget({
      perMinute: options.uploadsPerMinute,
      redis: app.redis,
      prefix: app.redisPrefix,
      log: app.log,
    })
    const multipartLimits: MultipartLimits = { ...MULTIPART_LIMITS, fileBytes: options.uploadLimitBytes }
    // the coin list's precisions, read through the cache as the getCoinList route reads it
    const readCoinList = async (): Promise<unknown> => {
      const coinList = routes.find((route) => route.name === 'getCoinList')!
      const outcome = await cache.serve(cacheKeyOf(coinList.label, '', '|'), coinList.cache!, () =>
        upstream.request({ method: 'GET', path: coinList.label, headers: {}, route: coinList.label }),
      )
      const body = outcome.answer?.body ?? outcome.upstream?.body
      if (!body) throw new Error('no coin list')
      return JSON.parse(body.toString('utf8'))
    }
    app.decorate('readCoinList', readCoinList)
    const precisions = new PrecisionSource({ load: readCoinList })
    // read once before the gateway serves, so the first amounts are already judged by their coin
    app.addHook('onReady', async () => {
      await precisions.current()
    })
    app.readiness.check('upstream', () => (upstream.reachable ? null : upstream.unreachableReason))
    app.addHook('onClose', async () => {
      await upstream.close()
    })

    const routes = (Object.entries(CALLS) as Array<[CallName, CallDefinition]>).map(([name, definition]) =>
      prepareCallRoute(name, definition, options.uploadLimitBytes + MULTIPART_OVERHEAD_BYTES),
    )
    const shape: ShapeLimits = { maxDepth: options.bodyMaxDepth, maxMembers: options.bodyMaxMembers }

    await app.register(async (scope) => {
      await scope.register(compressPlugin)
      addBodyParsers(scope, shape)
      scope.setValidatorCompiler(callSchemaCompiler)
      for (const route of routes) if (!route.multipart) register(scope, route)
    })
    await app.register(async (scope) => {
      await scope.register(compressPlugin)
      scope.removeAllContentTypeParsers()
      // read whole within the route's limit, and split by the gateway's own strict parser before validation
      scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      )
      scope.setValidatorCompiler(callSchemaCompiler)
      for (const route of routes) if (route.multipart) register(scope, route)
    })

    function register(scope: FastifyInstance, route: CallRoute): void {
      scope.route({
        method: route.definition.method,
        url: route.definition.path,
        config: { apiAnswer: true },
        bodyLimit: route.bodyLimit,
        schema: route.schema,
        // before the body is read: a bad token, and for uploads a missing session or a spent budget
        onRequest: route.multipart
          ? async (request, reply) => {
              reply.header('cache-control', NO_STORE)
              try {
                checkSessionHeader(request, route.definition.auth)
                await takeUploadBudget(request, reply)
              } catch (error) {
                // the body stays unread: the connection ends with this answer rather than drain it
                reply.header('connection', 'close')
                throw error
              }
            }
          : (request, reply, done) => {
              if (!route.cache) reply.header('cache-control', NO_STORE)
              checkSessionHeader(request, false)
              if (!route.definition.body && carriesBody(request)) {
                // unread, so the connection ends with the answer rather than drain what was sent
                reply.header('connection', 'close')
                throw new GatewayError(400, 'badRequest', 'body')
              }
              done()
            },
        // the Chinese rule answers before the schema does, and so does the money rule
        preValidation:
          route.multipart || route.amountFields.length > 0
            ? async (request) => {
                checkChineseRule(route, request)
                checkWholeNumbers(route.wholeFields, request.body, jsonText(request))
                if (route.multipart) request.uploadForm = readUpload(request)
                if (route.amountFields.length > 0)
                  checkAmounts(route.amountFields, amountInput(request), await precisions.current())
              }
            : (request, _reply, done) => {
                checkChineseRule(route, request)
                checkWholeNumbers(route.wholeFields, request.body, jsonText(request))
                done()
              },
        handler: (request, reply) => handle(route, request, reply),
      })
    }

    async function handle(route: CallRoute, request: FastifyRequest, reply: FastifyReply) {
      const languageHeaders = checkedLanguageHeaders(request)
      const path = route.definition.params
        ? callPath(route.name, request.params as Record<string, string>)
        : route.label
      // the query exactly as the client wrote it, now that every check has passed
      const rawQuery = rawQueryOf(request.url)
      const forwarded = forwardedBody(route, request)
      const outgoing: UpstreamRequest = {
        method: route.definition.method,
        path: rawQuery ? `${path}?${rawQuery}` : path,
        headers: forwardedHeaders(route, request, forwarded.contentType),
        body: forwarded.body,
        route: route.label,
        timeoutMs: route.definition.timeoutMs,
      }
      if (!route.cache) {
        const token = route.definition.auth ? request.headers[TOKEN_HEADER] : undefined
        const response =
          typeof token === 'string'
            ? await callWithSession(route, request, outgoing, token)
            : await callUpstream(request, outgoing)
        // a private answer: whatever the upstream said, no cache on the way may keep it
        return upstreamHead(reply, response).header('cache-control', NO_STORE).send(response.body)
      }
      // equal queries written in another order share one cached answer
      const key = cacheKeyOf(path, canonicalQuery(request.query as Record<string, unknown>), languageHeaders)
      const outcome = await cache.serve(key, route.cache, () => callUpstream(request, outgoing))
      app.metrics.cacheRequests.inc({ route: route.label, result: outcome.result })
      return sendCacheOutcome(request, reply, outcome)
    }

    /**
     * A token outside the token alphabet is refused on every call, as the upstream would otherwise be
     * asked about it; an upload also needs one at all, as its body is only read for a session.
     */
    function checkSessionHeader(request: FastifyRequest, required: boolean): void {
      const token = request.headers[TOKEN_HEADER]
      // an empty header is no token at all, as some clients send for a signed-out user
      if ((token === undefined || token === '') && !required) return
      if (typeof token === 'string' && TOKEN_PATTERN.test(token)) return
      app.metrics.rejectedRequests.inc({ reason: 'session' })
      throw new GatewayError(SIGN_IN_REQUIRED_STATUS, 'signInRequired', `headers.${TOKEN_HEADER}`)
    }

    async function takeUploadBudget(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const retryAfter = await uploadBudget.take(request.ip)
      if (retryAfter === 0) return
      app.metrics.rejectedRequests.inc({ reason: 'upload_budget' })
      reply.header('retry-after', retryAfter)
      throw new GatewayError(429, 'tooManyRequests', 'uploads')
    }

    async function callUpstream(
      request: FastifyRequest,
      outgoing: UpstreamRequest,
    ): Promise<UpstreamResponse> {
      try {
        const response = await upstream.request(outgoing)
        request.upstreamStatus = response.status
        request.upstreamMs = response.ms
        return response
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error
        request.upstreamMs = error.ms
        throw new GatewayError(
          error.statusCode,
          error.statusCode === 504 ? 'upstreamTimeout' : 'upstreamUnavailable',
        )
      }
    }

    /** A call made with a session, which its answer may end (sign-out, a new password, token expired). */
    async function callWithSession(
      route: CallRoute,
      request: FastifyRequest,
      outgoing: UpstreamRequest,
      token: string,
    ): Promise<UpstreamResponse> {
      let response: UpstreamResponse
      try {
        response = await callUpstream(request, outgoing)
      } catch (error) {
        // a sign-out the upstream never heard of still ends the session here
        if (route.name === 'loginOut') await app.sessionEnds?.end(token, 'revoked')
        throw error
      }
      const ending = sessionEndOf(route.name, request.query, response.body)
      if (ending) await app.sessionEnds?.end(token, ending)
      return response
    }

    function upstreamHead(reply: FastifyReply, response: UpstreamResponse) {
      return reply.code(response.status).headers(response.headers)
    }

    function sendCacheOutcome(request: FastifyRequest, reply: FastifyReply, outcome: CacheOutcome) {
      request.cacheResult = outcome.result
      reply.header('x-cache', outcome.result)
      const answer = outcome.answer
      if (!answer) return upstreamHead(reply, outcome.upstream!).send(outcome.upstream!.body)
      const age = Math.max(0, Math.floor((Date.now() - answer.storedAt) / 1000))
      reply.code(200).header('content-type', answer.contentType).header('age', age)
      if (!answer.encoded) return reply.send(answer.body)
      // the bytes compressed when the answer was stored; @fastify/compress leaves an encoded answer alone
      reply.header('vary', 'accept-encoding')
      const encoding = acceptedEncoding(request.headers['accept-encoding'])
      if (!encoding) return reply.send(answer.body)
      return reply.header('content-encoding', encoding).send(answer.encoded[encoding])
    }

    /** The Chinese rule on the raw path, query and body, as they arrived; throws a GatewayError on the first failure. */
    function checkChineseRule(route: CallRoute, request: FastifyRequest): void {
      const url = request.url
      const queryStart = url.indexOf('?')
      if (route.definition.params)
        checkRawText(queryStart < 0 ? url : url.slice(0, queryStart), 'params', countChinese)
      // without a query string the parsed query is empty and has nothing to check
      if (queryStart >= 0) {
        checkRawText(url.slice(queryStart + 1), 'query', countChinese)
        if (Object.keys(request.query as object).length > options.queryMaxParams)
          throw new GatewayError(400, 'badRequest', 'query')
      }
      const raw = request.rawBody
      if (raw === null) return
      try {
        checkRawText(raw, 'body', countChinese)
      } catch (error) {
        // the refused value's path, worked out only now that the request is refused anyway
        if (error instanceof GatewayError && error.messageKey === 'cannotInputChinese')
          throw new GatewayError(400, 'cannotInputChinese', chineseDetail(request.body, 'body'))
        throw error
      }
    }

    /** The body as the client sent it, for a call that takes one: the same bytes, or the checked upload's parts. */
    function forwardedBody(route: CallRoute, request: FastifyRequest): ForwardedBody {
      if (request.uploadForm) return { body: request.uploadForm, contentType: undefined }
      const bytes = request.rawBytes
      if (!route.definition.body || !bytes || bytes.length === 0)
        return { body: undefined, contentType: undefined }
      return {
        body: bytes,
        contentType: isForm(request) ? 'application/x-www-form-urlencoded' : 'application/json',
      }
    }

    function countChinese(): void {
      app.metrics.rejectedRequests.inc({ reason: 'chinese' })
    }

    /**
     * An upload's parts, split by the gateway's own parser and checked: names and file names by the
     * Chinese rule, every part that is not an accepted image decoded by its charset and checked as text.
     * The upstream receives the parts rebuilt, text as UTF-8, so it reads exactly what was checked.
     */
    function readUpload(request: FastifyRequest): FormData {
      const boundary = boundaryOf(request.headers['content-type'])
      if (!boundary || !Buffer.isBuffer(request.body)) throw new GatewayError(400, 'badRequest', 'body')
      const form = new FormData()
      for (const part of parseMultipart(request.body, boundary, multipartLimits)) {
        checkRawText(part.name, 'body', countChinese)
        checkRawText(part.filename, 'body', countChinese)
        if (part.kind === 'binary') {
          form.append(part.name, new Blob([part.content], { type: part.contentType }), part.filename)
          continue
        }
        checkRawText(part.text, 'body', countChinese)
        if (part.filename === '') form.append(part.name, part.text)
        else
          form.append(
            part.name,
            new Blob([part.text], { type: `${part.mediaType}; charset=utf-8` }),
            part.filename,
          )
      }
      return form
    }

    function forwardedHeaders(route: CallRoute, request: FastifyRequest, contentType: string | undefined) {
      const headers: Record<string, string> = { 'x-request-id': request.id, 'x-forwarded-for': request.ip }
      for (const name of route.forwardedHeaders) {
        const value = request.headers[name]
        if (typeof value === 'string') headers[name] = value
      }
      if (contentType) headers['content-type'] = contentType
      return headers
    }
  },
  { name: 'api', dependencies: ['metrics', 'health', 'redis'] },
)

/** Language headers pick the cached answer's language, so they are checked before use and form part of the key. */
function checkedLanguageHeaders(request: FastifyRequest): string {
  const { language, lang } = request.headers
  for (const [name, value] of [
    ['language', language],
    ['lang', lang],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || !LANGUAGE_VALUE.test(value))) {
      throw new GatewayError(400, 'badRequest', `headers.${name}`)
    }
  }
  return `${language ?? ''}|${lang ?? ''}`
}

/** A cached answer's key: the path, the query with keys sorted, and the language headers. */
function cacheKeyOf(path: string, canonicalQuery: string, languageHeaders: string): string {
  return `${canonicalQuery ? `${path}?${canonicalQuery}` : path}|${languageHeaders}`
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

/** The query string exactly as the request line wrote it, without the `?`. */
function rawQueryOf(url: string): string {
  const start = url.indexOf('?')
  return start < 0 ? '' : url.slice(start + 1)
}

/**
 * True when the request says a body follows. A call without a body refuses one rather than drop it:
 * the client meant something by it, and the upstream would never see it.
 */
function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

function isForm(request: FastifyRequest): boolean {
  return request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false
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
      done(null, parseQueryString(raw))
    },
  )
}
