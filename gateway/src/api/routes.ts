import { parse as parseQueryString } from 'node:querystring'
import fp from 'fastify-plugin'
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { FormData } from 'undici'
import { CALLS, callPath, type CallDefinition, type CallName } from '@tradegate/shared'
import { ResponseCache, type CacheOutcome } from './cache'
import { canonicalQuery, firstInvalidField, prepareCallRoute, type CallRoute } from './call-route'
import { GatewayError } from './errors'
import { locateChinese, nestsDeeperThan, rawTextHasChinese } from './guard'
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
  uploadLimitBytes: number
}

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: ResponseCache
  }
  interface FastifyRequest {
    /** the body text as received, kept so escapes the parser removed can still be checked */
    rawBody: string | null
  }
}

const LANGUAGE_VALUE = /^[A-Za-z0-9_-]{1,35}$/
// room for multipart boundaries and text fields on top of the file limit
const MULTIPART_OVERHEAD_BYTES = 256 * 1024

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
    app.decorateRequest('rawBody', null)
    app.readiness.check('upstream', () => (upstream.reachable ? null : 'upstream unreachable'))
    app.addHook('onClose', async () => {
      await upstream.close()
    })

    const routes = (Object.entries(CALLS) as Array<[CallName, CallDefinition]>).map(([name, definition]) =>
      prepareCallRoute(name, definition),
    )

    await app.register(async (scope) => {
      addBodyParsers(scope)
      for (const route of routes) if (!route.multipart) register(scope, route)
    })
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers()
      await scope.register(multipart, {
        throwFileSizeLimit: true,
        limits: {
          fileSize: options.uploadLimitBytes,
          files: 4,
          fields: 20,
          fieldSize: 16 * 1024,
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
        handler: (request, reply) => handle(route, request, reply),
      })
    }

    async function handle(route: CallRoute, request: FastifyRequest, reply: FastifyReply) {
      const input = await checkInput(route, request)
      const languageHeaders = checkedLanguageHeaders(request)
      const path = route.params ? callPath(route.name, request.params as Record<string, string>) : route.label
      const target = input.query ? `${path}?${input.query}` : path
      const outgoing: UpstreamRequest = {
        method: route.definition.method,
        path: target,
        headers: forwardedHeaders(route, request, input.contentType),
        body: input.body,
        route: route.label,
      }
      if (!route.cache) return sendUpstream(reply, await callUpstream(request, outgoing))

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

    function sendUpstream(reply: FastifyReply, response: UpstreamResponse) {
      return reply.code(response.status).headers(response.headers).send(response.body)
    }

    function sendCacheOutcome(request: FastifyRequest, reply: FastifyReply, outcome: CacheOutcome) {
      request.cacheResult = outcome.result
      reply.header('x-cache', outcome.result)
      if (!outcome.answer) return sendUpstream(reply, outcome.upstream!)
      const age = Math.max(0, Math.floor((Date.now() - outcome.answer.storedAt) / 1000))
      return reply
        .code(200)
        .header('content-type', outcome.answer.contentType)
        .header('age', age)
        .send(outcome.answer.body)
    }

    /** Chinese rule, limits and the call's schemas, in that order; throws a GatewayError on the first failure. */
    async function checkInput(route: CallRoute, request: FastifyRequest): Promise<CheckedInput> {
      const queryStart = request.url.indexOf('?')
      const query = request.query as Record<string, unknown>
      // without a query string the parsed query is empty and has nothing to check
      if (queryStart >= 0) {
        if (rawTextHasChinese(request.url.slice(queryStart + 1))) throw chineseIn('query')
        if (Object.keys(query).length > options.queryMaxParams)
          throw new GatewayError(400, 'badRequest', 'query')
        if (locateChinese(query) !== null) throw chineseIn('query')
      }

      const fields = route.multipart ? await readMultipart(request) : null
      const body = request.body
      if (request.rawBody !== null && rawTextHasChinese(request.rawBody)) throw chineseIn('body')
      if (body !== undefined && body !== null) {
        if (nestsDeeperThan(body, options.bodyMaxDepth)) throw new GatewayError(400, 'badRequest', 'body')
        const where = locateChinese(body)
        if (where !== null) throw chineseIn(`body${where.slice(1)}`)
      }

      if (route.params) fail(firstInvalidField(route.params, request.params, 'params'))
      if (route.query) fail(firstInvalidField(route.query, query, 'query'))
      const queryText = route.query ? canonicalQuery(query) : ''
      if (fields) return { query: queryText, body: fields, contentType: undefined }
      if (!route.body) return { query: queryText, body: undefined, contentType: undefined }
      fail(firstInvalidField(route.body, body, 'body'))
      const isForm = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
      return isForm
        ? {
            query: queryText,
            body: canonicalQuery(body as Record<string, unknown>),
            contentType: 'application/x-www-form-urlencoded',
          }
        : { query: queryText, body: JSON.stringify(body), contentType: 'application/json' }
    }

    function chineseIn(where: string): GatewayError {
      app.metrics.rejectedRequests.inc({ reason: 'chinese' })
      return new GatewayError(400, 'cannotInputChinese', where)
    }

    /** Reads every part into memory within the multipart limits, checking names, values and file names. */
    async function readMultipart(request: FastifyRequest): Promise<FormData> {
      const declared = Number(request.headers['content-length'] ?? 0)
      if (declared > options.uploadLimitBytes + MULTIPART_OVERHEAD_BYTES) {
        throw new GatewayError(413, 'payloadTooLarge')
      }
      if (!request.isMultipart()) throw new GatewayError(400, 'badRequest', 'body')
      const form = new FormData()
      for await (const part of request.parts()) {
        if (rawTextHasChinese(part.fieldname)) throw chineseIn('body')
        if (part.type === 'file') {
          if (rawTextHasChinese(part.filename)) throw chineseIn('body')
          const content = await part.toBuffer()
          form.append(part.fieldname, new Blob([content], { type: part.mimetype }), part.filename)
        } else {
          const value = String(part.value)
          if (rawTextHasChinese(value)) throw chineseIn('body')
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

function fail(field: string | null): void {
  if (field !== null) throw new GatewayError(400, 'badRequest', field)
}

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

function addBodyParsers(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers()
  const parseJson = scope.getDefaultJsonParser('error', 'error')
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const raw = text as string
    request.rawBody = raw
    if (raw.length === 0) return done(null, undefined)
    parseJson(request, raw, done)
  })
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, text, done) => {
      request.rawBody = text as string
      done(null, parseQueryString(text as string))
    },
  )
}
