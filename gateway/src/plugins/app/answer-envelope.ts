import fp from 'fastify-plugin'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import { redactUrl } from './logger'
import { PROBE_ROUTES } from './health'
import { batchedCounter } from './metrics'

// What every answer carries, whichever way it leaves: the request id header, the API security headers,
// one metric sample and one log line when the answer has gone out. Two ways answer API calls: Fastify's
// lifecycle (this plugin's hooks) and the cached-GET front door ahead of Fastify (api/cached-fast-path.ts),
// which takes its headers and records its answers through `app.answerEnvelope`, so a header or a log
// field is written here once for both. gateway/test/api/cached-answer-parity.test.ts holds the two
// ways to the same headers, log line, metrics and rate-limit effect.

declare module 'fastify' {
  interface FastifyInstance {
    /** The envelope of an answer, for the cached-GET front door that answers ahead of Fastify. */
    answerEnvelope: AnswerEnvelope
    /**
     * Counts and logs, as status 499, an exchange whose connection closed before its whole answer was
     * written (the client left: a page closed while the upstream was slow, an upload given up part way),
     * which no onResponse reports.
     */
    answerUnfinished(request: FastifyRequest, reply: FastifyReply): void
  }
  interface FastifyRequest {
    /** 0 when the request never reached upstream */
    upstreamStatus: number
    upstreamMs: number
    /** hit, miss or stale for cached calls, empty otherwise */
    cacheResult: string
    /** whether its metric sample and line have been written: once, however the exchange ends */
    answerRecorded: boolean
  }
  interface FastifyContextConfig {
    /** a JSON API route: it gets API_SECURITY_HEADERS instead of the page headers (security.ts) */
    apiAnswer?: boolean
  }
}

/** Set on API answers (JSON, never rendered) instead of the page headers. */
const API_SECURITY_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
})
const API_SECURITY_PAIRS = Object.entries(API_SECURITY_HEADERS).flat()

const UNMATCHED_ROUTE = 'unmatched'
/** The status an exchange is counted and logged under when its client closed the connection first (nginx's). */
const CLIENT_CLOSED = 499

/** The metrics of answers of one route, method and status, looked up once. */
export interface AnswerSeries {
  answered(ms: number): void
}

export interface AnswerLine {
  reqId: string
  route: string
  method: string
  url: string
  status: number
  ms: number
  upstreamStatus: number
  upstreamMs: number
  cache: string
}

export interface AnswerEnvelope {
  /** The headers an API answer starts with, as name, value pairs flat for `writeHead`. */
  apiHeaders(requestId: string): string[]
  /** gateway_http_requests_total and gateway_http_request_duration_seconds of one route, method, status */
  series(route: string, method: string, status: number): AnswerSeries
  /** Whether answers' lines are written (LOG_LEVEL): a line is built only when it is. */
  writesLines(): boolean
  /** The request line, through the instance's logger. */
  line(line: AnswerLine): void
}

/** Whether a logger writes info lines; a logger that cannot say is taken to write them. */
function writesInfo(log: FastifyBaseLogger): boolean {
  return (log as FastifyBaseLogger & Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.('info') ?? true
}

function envelopeOf(app: FastifyInstance): AnswerEnvelope {
  const { httpRequests, httpDuration } = app.metrics
  const counterFor = batchedCounter(httpRequests)
  return {
    apiHeaders: (requestId) => ['x-request-id', requestId, ...API_SECURITY_PAIRS],
    series(route, method, status) {
      const counter = counterFor(route, method, status)
      const timer = httpDuration.labels(route)
      return {
        answered(ms) {
          counter.inc()
          timer.observe(ms / 1000)
        },
      }
    },
    writesLines: () => writesInfo(app.log),
    line(line) {
      // through the instance's logger with the request id as a field: the same line as the request's
      // own logger would write, without making that logger's pino child for it
      app.log.info(
        {
          reqId: line.reqId,
          route: line.route,
          method: line.method,
          url: redactUrl(line.url),
          status: line.status,
          ms: Math.round(line.ms * 100) / 100,
          upstreamStatus: line.upstreamStatus || undefined,
          upstreamMs: line.upstreamMs ? Math.round(line.upstreamMs * 100) / 100 : undefined,
          cache: line.cache || undefined,
        },
        'request',
      )
    },
  }
}

export const answerEnvelopePlugin = fp(
  async (app) => {
    const envelope = envelopeOf(app)
    const { httpErrors } = app.metrics
    app.decorate('answerEnvelope', envelope)
    app.decorateRequest('upstreamStatus', 0)
    app.decorateRequest('upstreamMs', 0)
    app.decorateRequest('cacheResult', '')
    app.decorateRequest('answerRecorded', false)

    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id)
      if (request.routeOptions.config.apiAnswer) reply.headers(API_SECURITY_HEADERS)
      done()
    })

    app.addHook('onResponse', (request, reply, done) => {
      record(request, reply.statusCode, reply.elapsedTime)
      done()
    })
    // the one listener every exchange has (in-flight.ts) reports those whose connection closed first
    app.decorate('answerUnfinished', (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.answerRecorded) record(request, CLIENT_CLOSED, reply.elapsedTime)
    })

    function record(request: FastifyRequest, status: number, ms: number): void {
      request.answerRecorded = true
      // unmatched URLs share one label so clients cannot grow the metric without bound
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE
      envelope.series(route, request.method, status).answered(ms)
      // a 5xx the upstream answered and the gateway passed through is the upstream's, not the gateway's;
      // a probe's 503 (not ready, draining) is the state it asks about, not an error users met
      if (status >= 500 && !PROBE_ROUTES.has(route)) {
        const source = request.upstreamStatus === status ? 'upstream' : 'gateway'
        httpErrors.inc({ source, status })
      }
      // the line's fields are gathered only when it will be written (LOG_LEVEL, or a route's own level)
      if (!writesInfo(request.log)) return
      envelope.line({
        reqId: request.id,
        route,
        method: request.method,
        url: request.url,
        status,
        ms,
        upstreamStatus: request.upstreamStatus,
        upstreamMs: request.upstreamMs,
        cache: request.cacheResult,
      })
    }
  },
  { name: 'answer-envelope', dependencies: ['metrics'] },
)
