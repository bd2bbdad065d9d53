import type { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { TOKEN_HEADER, callPath } from '@tradegate/shared'
import { acceptedEncoding } from '../plugins/external/compress'
import { GatewayError } from '../lib/errors'
import {
  cacheLanguage,
  type CachedAnswer,
  type CacheOutcome,
  type CacheResult,
  type ResponseCache,
} from './cache'
import { canonicalQuery, type CallRoute } from './call-route'
import { checkedLanguageHeaders } from './request-checks'
import { mayEndSessions, sessionEndOf } from '../upstream/session-end'
import { tokenKey, userOfAnswer } from '../upstream/user-resolver'
import {
  UPSTREAM_DOWN_RETRY_AFTER_S,
  UpstreamError,
  type Upstream,
  type UpstreamRequest,
  type UpstreamResponse,
} from '../upstream/upstream'

// A checked request on its way: the bytes the client sent go to the upstream, and its answer comes
// back, through the response cache for a public read and with the session it may end for a private one.

export const NO_STORE = 'no-store'

/** What a call is proxied with. */
export interface Proxy {
  app: FastifyInstance
  upstream: Upstream
  cache: ResponseCache
  /** gateway_cache_requests_total's child for a route and a result */
  countCache(route: string, result: CacheResult): { inc(): void }
}

interface ForwardedBody {
  /** an upload's checked parts as they are read, or the client's bytes */
  body: Buffer | Readable | undefined
  contentType: string | undefined
}

/**
 * Sends a checked request upstream and its answer back: cached for a public read, no-store for a private one.
 * An answer this instance holds goes out in the same turn, without a promise on the way.
 */
export function proxyCall(
  proxy: Proxy,
  route: CallRoute,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> | undefined {
  checkedLanguageHeaders(request)
  const path = route.definition.params
    ? callPath(route.name, request.params as Record<string, string>)
    : route.label
  if (!route.cache) return proxyPrivate(proxy, route, request, reply, path)
  // equal queries written in another order share one cached answer; a query has only declared
  // parameters (the schema refuses others), and the languages are the bounded ones the upstream is asked in
  const key = cacheKeyOf(
    path,
    canonicalQuery(request.query as Record<string, unknown>),
    cachedLanguageHeaders(request),
  )
  let outgoing: UpstreamRequest | undefined
  const fetch = () => callUpstream(proxy, request, outgoing!)
  const held = proxy.cache.serveHeld(key, route.cache, fetch)
  // a fresh hit never calls the upstream, so its request is not built; a stale answer's refresh (after
  // this answer has gone) and a miss read it now, while the client's connection and address are there
  if (held?.result !== 'hit') outgoing = outgoingRequest(route, request, path)
  if (held) {
    answerFromCache(proxy, route, request, reply, held)
    return undefined
  }
  return proxy.cache
    .serve(key, route.cache, fetch)
    .then((outcome) => answerFromCache(proxy, route, request, reply, outcome))
}

/**
 * A call no cache may keep: sent upstream with the session it carries, which its answer may end. Without a
 * session the answer goes out from the upstream client's callback, without a promise on the way.
 */
function proxyPrivate(
  proxy: Proxy,
  route: CallRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
): Promise<FastifyReply> | undefined {
  const outgoing = outgoingRequest(route, request, path)
  const token = route.definition.auth ? request.headers[TOKEN_HEADER] : undefined
  if (typeof token === 'string')
    return callWithSession(proxy, route, request, outgoing, token).then((response) =>
      sendPrivate(reply, response),
    )
  proxy.upstream.call(outgoing, (error, response) => {
    // thrown here it would reach the upstream client's parser, not the error handler
    try {
      if (error) throw gatewayErrorOf(request, error)
      noteUpstream(request, response!)
      sendPrivate(reply, response!)
    } catch (failure) {
      reply.send(failure)
    }
  })
  return undefined
}

/** A private answer: whatever the upstream said, no cache on the way may keep it. */
function sendPrivate(reply: FastifyReply, response: UpstreamResponse): FastifyReply {
  return upstreamHead(reply, response).header('cache-control', NO_STORE).send(response.body)
}

function answerFromCache(
  proxy: Proxy,
  route: CallRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: CacheOutcome,
): FastifyReply {
  proxy.countCache(route.label, outcome.result).inc()
  return sendCacheOutcome(request, reply, outcome)
}

/** The request the upstream is sent: the path, the query exactly as the client wrote it, the body as received. */
function outgoingRequest(route: CallRoute, request: FastifyRequest, path: string): UpstreamRequest {
  // the query exactly as the client wrote it, now that every check has passed
  const rawQuery = rawQueryOf(request.url)
  const forwarded = forwardedBody(route, request)
  return {
    method: route.definition.method,
    path: rawQuery ? `${path}?${rawQuery}` : path,
    headers: forwardedHeaders(route, request, forwarded),
    body: forwarded.body,
    route: route.label,
    // undici starts a call's clock once its body has been sent, so a slow uploader has the whole timeout
    // for the upstream's answer (upload-bounds.test.ts, the slow sender)
    timeoutMs: route.definition.timeoutMs,
  }
}

async function callUpstream(
  proxy: Proxy,
  request: FastifyRequest,
  outgoing: UpstreamRequest,
): Promise<UpstreamResponse> {
  const upload = request.uploadForm
  // an upload refused before its stream was sent is not sent at all
  if (upload?.failure) throw upload.failure
  try {
    return noteUpstream(request, await proxy.upstream.request(outgoing))
  } catch (error) {
    // an upload refused while it streamed: its request was abandoned unfinished, and the refusal is the answer
    if (upload?.failure) throw upload.failure
    if (!(error instanceof UpstreamError)) throw error
    throw gatewayErrorOf(request, error)
  }
}

/** The upstream's status and time, for the request line. */
function noteUpstream(request: FastifyRequest, response: UpstreamResponse): UpstreamResponse {
  request.upstreamStatus = response.status
  request.upstreamMs = response.ms
  return response
}

/**
 * A failed upstream call as the client is answered: 504 for a timeout, 503 with Retry-After for a call
 * not sent because the upstream is known down, 502 otherwise.
 */
function gatewayErrorOf(request: FastifyRequest, error: UpstreamError): GatewayError {
  request.upstreamMs = error.ms
  if (error.kind === 'open')
    return new GatewayError(503, 'upstreamUnavailable', undefined, UPSTREAM_DOWN_RETRY_AFTER_S)
  return new GatewayError(
    error.statusCode,
    error.statusCode === 504 ? 'upstreamTimeout' : 'upstreamUnavailable',
  )
}

/**
 * A call made with a session, whose answer may end every session of its user (sign-out, a new
 * password, token expired) and, for user info, names the token's user.
 */
async function callWithSession(
  proxy: Proxy,
  route: CallRoute,
  request: FastifyRequest,
  outgoing: UpstreamRequest,
  token: string,
): Promise<UpstreamResponse> {
  const { sessions, users } = proxy.app
  // the token's user, while the token still works: its other sessions end with it
  const resolved = mayEndSessions(route.definition) ? await users.resolve(token) : null
  const userId = resolved && 'userId' in resolved ? resolved.userId : undefined
  let response: UpstreamResponse
  try {
    response = await callUpstream(proxy, request, outgoing)
  } catch (error) {
    // a sign-out the upstream never heard of still ends the sessions here
    if (route.definition.endsSessions === 'always') await sessions.end('revoked', { token, userId })
    throw error
  }
  const ending = sessionEndOf(route.definition, response.body)
  if (ending) await sessions.end(ending, { token, userId })
  else if (route.name === 'userInfo' && response.status === 200) {
    const named = userOfAnswer(response.body)
    if (named) sessions.learn(tokenKey(token), named)
  }
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
  const { headers, body } = storedAnswerHead(answer, request.headers['accept-encoding'])
  reply.code(200)
  for (let index = 0; index < headers.length; index += 2) reply.header(headers[index]!, headers[index + 1])
  return reply.send(body)
}

/**
 * A stored answer as it goes to a client that accepts `acceptEncoding`, whichever way it is answered (this
 * route or the cached-GET front door): its headers after x-cache, as name, value pairs flat, and its bytes.
 * The bytes were compressed when the answer was stored; @fastify/compress leaves an encoded answer alone.
 */
export function storedAnswerHead(
  answer: CachedAnswer,
  acceptEncoding: string | undefined,
): { headers: string[]; body: Buffer } {
  const age = String(Math.max(0, Math.floor((Date.now() - answer.storedAt) / 1000)))
  const headers = ['content-type', answer.contentType, 'age', age]
  if (!answer.encoded) return { headers, body: answer.body }
  headers.push('vary', 'accept-encoding')
  const encoding = acceptedEncoding(acceptEncoding)
  if (!encoding) return { headers, body: answer.body }
  headers.push('content-encoding', encoding)
  return { headers, body: answer.encoded[encoding] }
}

/** The body as the client sent it, for a call that takes one: the same bytes, or the checked upload's parts as they stream. */
function forwardedBody(route: CallRoute, request: FastifyRequest): ForwardedBody {
  const upload = request.uploadForm
  if (upload) return { body: upload.stream, contentType: upload.contentType }
  const bytes = request.rawBytes
  if (!route.definition.body || !bytes || bytes.length === 0)
    return { body: undefined, contentType: undefined }
  return {
    body: bytes,
    contentType: isForm(request) ? 'application/x-www-form-urlencoded' : 'application/json',
  }
}

function forwardedHeaders(route: CallRoute, request: FastifyRequest, body: ForwardedBody) {
  const headers: Record<string, string> = { 'x-request-id': request.id, 'x-forwarded-for': request.ip }
  for (const name of route.forwardedHeaders) {
    const value = request.headers[name]
    if (typeof value !== 'string') continue
    // a shared answer is asked for in the language it is kept under, so it is right for everyone given it
    const sent = route.cache && (name === 'language' || name === 'lang') ? cacheLanguage(value) : value
    if (sent !== '') headers[name] = sent
  }
  if (body.contentType) headers['content-type'] = body.contentType
  return headers
}

/** The language headers of a cached call as its key holds them (`cacheLanguage`). */
export function cachedLanguageHeaders(request: FastifyRequest): string {
  const { language, lang } = request.headers
  return `${cacheLanguage(language as string | undefined)}|${cacheLanguage(lang as string | undefined)}`
}

/** A cached answer's key: the path, the query with keys sorted, and the language headers. */
export function cacheKeyOf(path: string, canonicalQuery: string, languageHeaders: string): string {
  return `${canonicalQuery ? `${path}?${canonicalQuery}` : path}|${languageHeaders}`
}

/** The query string exactly as the request line wrote it, without the `?`. */
function rawQueryOf(url: string): string {
  const start = url.indexOf('?')
  return start < 0 ? '' : url.slice(start + 1)
}

export function isForm(request: FastifyRequest): boolean {
  return request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false
}
