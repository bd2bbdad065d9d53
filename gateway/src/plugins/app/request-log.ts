import fp from 'fastify-plugin'
import type { FastifyBaseLogger } from 'fastify'
import type { Logger } from 'pino'
import { redactUrl } from './logger'
import { PROBE_ROUTES } from './health'
import { batchedCounter } from './metrics'

// One log line and one metric sample per request, written when the answer has gone out.

declare module 'fastify' {
  interface FastifyInstance {
    /** What the request log records of one answer; the cached-GET fast path records through it too. */
    answerRecord: AnswerRecord
  }
  interface FastifyRequest {
    /** 0 when the request never reached upstream */
    upstreamStatus: number
    upstreamMs: number
    /** hit, miss or stale for cached calls, empty otherwise */
    cacheResult: string
  }
}

const UNMATCHED_ROUTE = 'unmatched'

/** One answer's metrics and log line, shared by the Fastify lifecycle and the cached-GET fast path. */
export interface AnswerRecord {
  /** gateway_http_requests_total and gateway_http_request_duration_seconds for an answer */
  count(route: string, method: string, status: number, ms: number): void
  /** the same for one route, method and status, looked up once */
  series(route: string, method: string, status: number): { answered(ms: number): void }
  /** whether the instance's logger writes info lines (LOG_LEVEL) */
  writesInfo(): boolean
  /** the request line, with the instance's logger */
  log(line: AnswerLine): void
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

/** Whether a request's logger writes info lines; a logger that cannot say is taken to write them. */
function writesInfo(log: FastifyBaseLogger): boolean {
  return (log as FastifyBaseLogger & Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.('info') ?? true
}

export const requestLogPlugin = fp(
  async (app) => {
    const { httpRequests, httpDuration, httpErrors } = app.metrics
    const counterFor = batchedCounter(httpRequests)
    const record: AnswerRecord = {
      count(route, method, status, ms) {
        counterFor(route, method, status).inc()
        httpDuration.labels(route).observe(ms / 1000)
      },
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
      writesInfo: () => writesInfo(app.log),
      log(line) {
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
    app.decorate('answerRecord', record)
    app.decorateRequest('upstreamStatus', 0)
    app.decorateRequest('upstreamMs', 0)
    app.decorateRequest('cacheResult', '')

    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id)
      done()
    })

    app.addHook('onResponse', (request, reply, done) => {
      // unmatched URLs share one label so clients cannot grow the metric without bound
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE
      const ms = reply.elapsedTime
      record.count(route, request.method, reply.statusCode, ms)
      // a 5xx the upstream answered and the gateway passed through is the upstream's, not the gateway's;
      // a probe's 503 (not ready, draining) is the state it asks about, not an error users met
      if (reply.statusCode >= 500 && !PROBE_ROUTES.has(route)) {
        const source = request.upstreamStatus === reply.statusCode ? 'upstream' : 'gateway'
        httpErrors.inc({ source, status: reply.statusCode })
      }
      // the line's fields are gathered only when it will be written (LOG_LEVEL, or a route's own level)
      if (!writesInfo(request.log)) return done()
      record.log({
        reqId: request.id,
        route,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms,
        upstreamStatus: request.upstreamStatus,
        upstreamMs: request.upstreamMs,
        cache: request.cacheResult,
      })
      done()
    })
  },
  { name: 'request-log', dependencies: ['metrics'] },
)
