import fp from 'fastify-plugin'
import type { FastifyBaseLogger } from 'fastify'
import type { Logger } from 'pino'
import { redactUrl } from './logger'
import { batchedCounter } from './metrics'

// One log line and one metric sample per request, written when the answer has gone out.

declare module 'fastify' {
  interface FastifyRequest {
    /** 0 when the request never reached upstream */
    upstreamStatus: number
    upstreamMs: number
    /** hit, miss or stale for cached calls, empty otherwise */
    cacheResult: string
  }
}

const UNMATCHED_ROUTE = 'unmatched'

/** Whether a request's logger writes info lines; a logger that cannot say is taken to write them. */
function writesInfo(log: FastifyBaseLogger): boolean {
  return (log as FastifyBaseLogger & Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.('info') ?? true
}

export const requestLogPlugin = fp(
  async (app) => {
    const { httpRequests, httpDuration, httpErrors } = app.metrics
    const counterFor = batchedCounter(httpRequests)
    const timerFor = (route: string) => httpDuration.labels(route)
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
      counterFor(route, request.method, reply.statusCode).inc()
      // a 5xx the upstream answered and the gateway passed through is the upstream's, not the gateway's
      if (reply.statusCode >= 500) {
        const source = request.upstreamStatus === reply.statusCode ? 'upstream' : 'gateway'
        httpErrors.inc({ source, status: reply.statusCode })
      }
      timerFor(route).observe(ms / 1000)
      // the line's fields are gathered only when it will be written (LOG_LEVEL, or a route's own level)
      if (!writesInfo(request.log)) return done()
      // through the instance's logger with the request id as a field: the same line as the request's
      // own logger would write, without making that logger's pino child for it
      app.log.info(
        {
          reqId: request.id,
          route,
          method: request.method,
          url: redactUrl(request.url),
          status: reply.statusCode,
          ms: Math.round(ms * 100) / 100,
          upstreamStatus: request.upstreamStatus || undefined,
          upstreamMs: request.upstreamMs ? Math.round(request.upstreamMs * 100) / 100 : undefined,
          cache: request.cacheResult || undefined,
        },
        'request',
      )
      done()
    })
  },
  { name: 'request-log', dependencies: ['metrics'] },
)
