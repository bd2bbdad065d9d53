import { parse as parseQueryString } from 'node:querystring'
import fp from 'fastify-plugin'
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { FormData } from 'undici'
import { CALLS, TOKEN_HEADER, callPath, type CallDefinition, type CallName } from '@tradegate/shared'
import { acceptedEncoding, compressPlugin } from '../plugins/external/compress'
import { ResponseCache, type CacheOutcome } from './cache'
import { callSchemaCompiler, canonicalQuery, prepareCallRoute, type CallRoute } from './call-route'
import { GatewayError } from '../lib/errors'
import { sessionEndOf, type SessionEnd } from './session-end'
import { checkJsonShape, checkRawText, chineseDetail, type ShapeLimits } from './guard'
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
}

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: ResponseCache
    /** the one HTTP client to the upstream, shared by the REST path and the live part */
    upstream: Upstream
    /** set by the live part: ends a session on every instance */
    sessionEnds?: { end(token: string, how: SessionEnd): Promise<void> }
  }
  interface FastifyRequest {
    /** the body text as received, kept so escapes the parser removed can still be checked */
    rawBody: string | null
    /** an upload's parts, read and checked before validation */
    uploadForm: FormData | null
  }
}

const LANGUAGE_VALUE = /^[A-Za-z0-9_-]{1,35}$/
// room for multipart boundaries and text fields on top of the file limit
const MULTIPART_OVERHEAD_BYTES = 256 * 1024
// a part is text, and checked, when it says so or carries no file name; binary files are left alone
const TEXT_PART_TYPE = /^text\//i
// text parts are read whole by the Chinese rule, so they get the size of a text field, not of a file
const TEXT_PART_LIMIT_BYTES = 16 * 1024

interface CheckedInput {
  query: string
  body: string | FormData | undefined
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
    app.decorateRequest('uploadForm', null)
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
      scope.setValidatorCompiler(callSchemaCompiler)
      await scope.register(multipart, {
        throwFileSizeLimit: true,
        limits: {
          fileSize: options.uploadLimitBytes,
          files: 4,
          fields: 20,
          fieldSize: TEXT_PART_LIMIT_BYTES,
          parts: 24,
          headerPairs: 50,
        },
      })
      for (const route of routes) if (route.multipart) register(scope, route)
    })

    function register(scope: FastifyInstance, route: CallRoute): void {
      scope.route({
        method: route.definition.method,
        url: route.definition.path,
        config: { apiAnswer: true },
        bodyLimit: route.bodyLimit,
        schema: route.schema,
        // the Chinese rule answers before the schema does, and an upload's parts are checked as they are read
        preValidation: route.multipart
          ? async (request) => {
              checkChineseRule(route, request)
              request.uploadForm = await readMultipart(request)
            }
          : (request, _reply, done) => {
              checkChineseRule(route, request)
              done()
            },
        handler: (request, reply) => handle(route, request, reply),
      })
    }

    async function handle(route: CallRoute, request: FastifyRequest, reply: FastifyReply) {
      const input = checkedInput(route, request)
      const languageHeaders = checkedLanguageHeaders(request)
      const path = route.definition.params
        ? callPath(route.name, request.params as Record<string, string>)
        : route.label
      const target = input.query ? `${path}?${input.query}` : path
      const outgoing: UpstreamRequest = {
        method: route.definition.method,
        path: target,
        headers: forwardedHeaders(route, request, input.contentType),
        body: input.body,
        route: route.label,
        timeoutMs: route.definition.timeoutMs,
      }
      if (!route.cache) {
        const token = route.definition.auth ? request.headers[TOKEN_HEADER] : undefined
        if (typeof token !== 'string') return sendUpstream(reply, await callUpstream(request, outgoing))
        return sendUpstream(reply, await callWithSession(route, request, outgoing, token))
      }

      const outcome = await cache.serve(`${target}|${languageHeaders}`, route.cache, () =>
        callUpstream(request, outgoing),
      )
      app.metrics.cacheRequests.inc({ route: route.label, result: outcome.result })
      return sendCacheOutcome(request, reply, outcome)
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

    function sendUpstream(reply: FastifyReply, response: UpstreamResponse) {
      return reply.code(response.status).headers(response.headers).send(response.body)
    }

    function sendCacheOutcome(request: FastifyRequest, reply: FastifyReply, outcome: CacheOutcome) {
      request.cacheResult = outcome.result
      reply.header('x-cache', outcome.result)
      const answer = outcome.answer
      if (!answer) return sendUpstream(reply, outcome.upstream!)
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

    /** What goes upstream: the checked query re-encoded, and the checked body in the form it came in. */
    function checkedInput(route: CallRoute, request: FastifyRequest): CheckedInput {
      const queryText = route.definition.query ? canonicalQuery(request.query as Record<string, unknown>) : ''
      if (request.uploadForm) return { query: queryText, body: request.uploadForm, contentType: undefined }
      if (!route.definition.body) return { query: queryText, body: undefined, contentType: undefined }
      const body = request.body
      const isForm = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
      return isForm
        ? {
            query: queryText,
            body: canonicalQuery(body as Record<string, unknown>),
            contentType: 'application/x-www-form-urlencoded',
          }
        : { query: queryText, body: JSON.stringify(body), contentType: 'application/json' }
    }

    function countChinese(): void {
      app.metrics.rejectedRequests.inc({ reason: 'chinese' })
    }

    /** Reads every part into memory within the multipart limits, checking names, text parts and file names. */
    async function readMultipart(request: FastifyRequest): Promise<FormData> {
      const declared = Number(request.headers['content-length'] ?? 0)
      if (declared > options.uploadLimitBytes + MULTIPART_OVERHEAD_BYTES) {
        throw new GatewayError(413, 'payloadTooLarge')
      }
      if (!request.isMultipart()) throw new GatewayError(400, 'badRequest', 'body')
      const form = new FormData()
      for await (const part of request.parts()) {
        checkRawText(part.fieldname, 'body', countChinese)
        if (part.type === 'file') {
          checkRawText(part.filename, 'body', countChinese)
          const content = await part.toBuffer()
          if (TEXT_PART_TYPE.test(part.mimetype)) {
            if (content.length > TEXT_PART_LIMIT_BYTES) throw new GatewayError(413, 'payloadTooLarge')
            checkRawText(content.toString('utf8'), 'body', countChinese)
          }
          form.append(part.fieldname, new Blob([content], { type: part.mimetype }), part.filename)
        } else {
          const value = String(part.value)
          checkRawText(value, 'body', countChinese)
          form.append(part.fieldname, value)
        }
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

/** JSON and form bodies, kept as text for the Chinese rule and refused by shape before they are parsed. */
function addBodyParsers(scope: FastifyInstance, shape: ShapeLimits): void {
  scope.removeAllContentTypeParsers()
  const parseJson = scope.getDefaultJsonParser('error', 'error')
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const raw = text as string
    request.rawBody = raw
    if (raw.length === 0) return done(null, undefined)
    try {
      checkJsonShape(raw, shape)
    } catch (error) {
      return done(error as GatewayError, undefined)
    }
    parseJson(request, raw, done)
  })
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, text, done) => {
      const raw = text as string
      request.rawBody = raw
      // a form is flat: its pairs are its members
      const pairs = raw.length === 0 ? 0 : raw.split('&', shape.maxMembers + 1).length
      if (pairs > shape.maxMembers) return done(new GatewayError(400, 'badRequest', 'body'), undefined)
      done(null, parseQueryString(raw))
    },
  )
}
