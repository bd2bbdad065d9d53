import fp from 'fastify-plugin'
import type { FastifyError } from 'fastify'
import { GatewayError, errorBody } from '../../lib/errors'

// One place that turns every failure into `{code, msg}` with the real status, and hides 5xx details.

export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | GatewayError, request, reply) => {
      if (error instanceof GatewayError) {
        if (error.retryAfterSeconds !== undefined) reply.header('retry-after', error.retryAfterSeconds)
        return reply.code(error.statusCode).send(error.body())
      }
      const status = error.statusCode ?? 500
      if (status === 413) {
        app.metrics.rejectedRequests.inc({ reason: 'too_large' })
        return reply.code(413).send(errorBody(413, 'payloadTooLarge'))
      }
      if (status === 415) return reply.code(415).send(errorBody(415, 'unsupportedMediaType'))
      if (status === 503) return reply.code(503).send(errorBody(503, 'serviceUnavailable'))
      // a refused file path (403 from the static server) reads the same as a missing one
      if (status === 404 || status === 403) return reply.code(404).send(errorBody(404, 'notFound'))
      if (status === 429) return reply.code(429).send(errorBody(429, 'tooManyRequests'))
      if (status >= 400 && status < 500) {
        return reply.code(status).send(errorBody(status, 'badRequest', error.validationContext))
      }
      request.log.error({ err: error }, 'request failed')
      return reply.code(500).send(errorBody(500, 'internalError'))
    })
  },
  { name: 'error-handler', dependencies: ['metrics'] },
)
