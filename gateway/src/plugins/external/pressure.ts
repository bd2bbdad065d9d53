import fp from 'fastify-plugin'
import underPressure from '@fastify/under-pressure'
import { GatewayError } from '../../lib/errors'
import { PROBE_ROUTES } from '../app/health'

// Sheds load with 503 and Retry-After while the event loop lags, keeping health and metrics answering.
// Socket upgrades are left to the live plugin's upgrade guard, as before the endpoint became a route.

const RETRY_AFTER_SECONDS = 5

export const pressurePlugin = fp<{ maxEventLoopDelayMs: number }>(
  async (app, { maxEventLoopDelayMs }) => {
    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      retryAfter: RETRY_AFTER_SECONDS,
      // a rejected promise reaches the error handler, which writes the 503 body
      pressureHandler: async (request, reply) => {
        if (PROBE_ROUTES.has(request.routeOptions.url ?? '')) return
        if (request.headers.upgrade && request.url.startsWith('/ws/')) return
        app.metrics.rejectedRequests.inc({ reason: 'pressure' })
        reply.header('retry-after', RETRY_AFTER_SECONDS)
        throw new GatewayError(503, 'serviceUnavailable')
      },
    })
  },
  { name: 'pressure', dependencies: ['metrics'] },
)
