import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { TSchema } from 'typebox'
import type { FastifyInstance } from 'fastify'
import { TOKEN_HEADER, isWellFormedToken, type CachePolicy } from '@tradegate/shared'
import type { AnswerEnvelope, AnswerSeries } from '../plugins/app/answer-envelope'
import type { TrustFunction } from '../config'
import { clientAddressFor, requestIdOf } from '../lib/request-id'
import { compiledCheck, type CallRoute } from './call-route'
import { storedAnswerHead, type Proxy } from './proxy'
import { cacheLanguage } from './cache'
import { LANGUAGE_VALUE } from './request-checks'

// The cached-GET fast path: a fresh hit of a cached call without a query answered ahead of Fastify,
// with the same checks, headers, metrics and log line as the route would give it: the headers and the
// line come from the answer envelope (plugins/app/answer-envelope.ts), the stored answer's head from
// `storedAnswerHead` (proxy.ts), the budget from the rate limit's `takeBudgetAhead`, each the one the
// route uses; gateway/test/api/cached-answer-parity.test.ts holds the two ways equal.
//
// Why a second way at all: measured side by side (RESULTS.md, "Decisions by A/B", fastpath against
// fastify-only: the same cached getAllSetting through this path and through Fastify's own hooks, same
// run, same wrk), Fastify's lifecycle cost 2.8x (1.6-4.4x) this path's CPU per request and gave 0.59x
// its req/s; before, on a quieter machine, ~1.9x a bare Fastify route's CPU, spread thin over eight hooks,
// the Request and Reply objects and the compress onSend that never compresses a stored answer. Anything
// this path does not answer in full (a miss, a stale answer, a query, a body, a refused or unusual
// header, a spent or Redis-pending budget, draining, load shedding) goes on to Fastify unchanged, so
// every refusal keeps its one code path there.

/** What an answered request shares with the Fastify route: a fresh hit is always this. */
const HIT = 'hit'

interface FastRoute {
  route: CallRoute
  policy: CachePolicy
  /** the cache key without language headers: `cacheKeyOf(path, '', '|')` */
  plainKey: string
  countHit: { inc(): void }
  answered: AnswerSeries
}

export interface CachedFastPathOptions {
  proxy: Proxy
  envelope: AnswerEnvelope
  trustProxy: boolean | string | TrustFunction
  takeBudgetAhead: FastifyInstance['takeBudgetAhead']
  /** true while answers must go through Fastify: draining (connection: close) or shedding load */
  held(): boolean
}

export class CachedFastPath {
  private readonly routes = new Map<string, FastRoute>()
  private readonly clientAddress: (raw: IncomingMessage) => string | undefined
  private open = false

  constructor(private readonly options: CachedFastPathOptions) {
    this.clientAddress = clientAddressFor(options.trustProxy)
  }

  /**
   * Takes a route when a request without a query could be answered from its cache with nothing else
   * checked: a cached GET without path parameters or money fields whose query schema accepts no query.
   */
  add(route: CallRoute): boolean {
    const query = route.schema.querystring as TSchema | undefined
    if (
      !route.cache ||
      route.definition.method !== 'GET' ||
      route.definition.params ||
      route.multipart ||
      route.amountFields.length > 0 ||
      (query !== undefined && !compiledCheck(query).Check({}))
    )
      return false
    this.routes.set(route.definition.path, {
      route,
      policy: route.cache,
      plainKey: `${route.label}||`,
      countHit: this.options.proxy.countCache(route.label, HIT),
      answered: this.options.envelope.series(route.label, 'GET', 200),
    })
    return true
  }

  /** Answering from now on (the gateway is ready) or not (it is closing). */
  setOpen(open: boolean): void {
    this.open = open
  }

  /** Answers a fresh hit in full and returns true; false leaves the request, untouched, to Fastify. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (!this.open || request.method !== 'GET') return false
    const fast = this.routes.get(request.url!)
    if (fast === undefined) return false
    const start = performance.now()
    const headers = request.headers
    // what the route's onRequest refuses (a body, a malformed session) or the upgrade guard handles
    if (headers.upgrade !== undefined || headers['transfer-encoding'] !== undefined) return false
    const length = headers['content-length']
    if (length !== undefined && length !== '0') return false
    const token = headers[TOKEN_HEADER]
    if (token !== undefined && token !== '' && !isWellFormedToken(token)) return false
    const { language, lang } = headers
    if (language !== undefined && (typeof language !== 'string' || !LANGUAGE_VALUE.test(language)))
      return false
    if (lang !== undefined && (typeof lang !== 'string' || !LANGUAGE_VALUE.test(lang))) return false
    if (this.options.held()) return false
    const key =
      language === undefined && lang === undefined
        ? fast.plainKey
        : `${fast.route.label}|${cacheLanguage(language)}|${cacheLanguage(lang)}`
    const answer = this.options.proxy.cache.freshHeld(key, fast.policy)
    if (answer === undefined) return false
    // the budget last, so a request left to Fastify before here has taken nothing; after here it
    // carries its verdict, and the rate-limit hook answers by it without taking again
    const address = this.clientAddress(request)
    if (address === undefined || !this.options.takeBudgetAhead(request, address)) return false

    const id = requestIdOf(request)
    const { headers: stored, body } = storedAnswerHead(answer, headers['accept-encoding'])
    const out = this.options.envelope.apiHeaders(id)
    out.push('x-cache', HIT, ...stored, 'content-length', String(body.length))
    try {
      response.writeHead(200, out)
    } catch {
      // a header Node refuses (a stored content type it will not send): Fastify answers with its error
      return false
    }
    response.end(body)

    fast.countHit.inc()
    const ms = performance.now() - start
    fast.answered.answered(ms)
    if (this.options.envelope.writesLines())
      this.options.envelope.line({
        reqId: id,
        route: fast.route.label,
        method: 'GET',
        url: request.url!,
        status: 200,
        ms,
        upstreamStatus: 0,
        upstreamMs: 0,
        cache: HIT,
      })
    return true
  }
}
