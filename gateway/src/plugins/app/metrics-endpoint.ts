import { createServer, type ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import type { GatewayMessage } from '@tradegate/shared'
import { errorBody } from '../../lib/errors'
import { sameToken } from '../../lib/same-token'

// Where /metrics answers: on the public port, or with METRICS_PORT only on a listener of its own
// (the public port then answers 404); with METRICS_TOKEN only to `Authorization: Bearer <token>`.

export interface MetricsEndpointOptions {
  /** 0 serves /metrics on the public port */
  port?: number
  host?: string
  /** empty: no token asked */
  token?: string
}

const METRICS_PATH = '/metrics'

function sendError(response: ServerResponse, status: number, message: GatewayMessage): void {
  const body = JSON.stringify(errorBody(status, message))
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body)
}

export function serveMetrics(
  app: FastifyInstance,
  registry: Registry,
  { port = 0, host = '0.0.0.0', token = '' }: MetricsEndpointOptions,
): void {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null
  const allowed = (authorization: string | undefined): boolean =>
    !expected || (authorization !== undefined && sameToken(authorization, expected))

  if (!port) {
    app.get(METRICS_PATH, { logLevel: 'warn' }, async (request, reply) => {
      if (!allowed(request.headers.authorization)) return reply.code(403).send(errorBody(403, 'forbidden'))
      reply.type(registry.contentType)
      return registry.metrics()
    })
    return
  }

  // kept as a route so the client page fallback never answers it
  app.get(METRICS_PATH, { logLevel: 'warn' }, async (_request, reply) =>
    reply.code(404).send(errorBody(404, 'notFound')),
  )
  // a bare listener: no rate limit, load shedding or draining stands between it and the scraper
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0]
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendError(response, 404, 'notFound')
    }
    if (!allowed(request.headers.authorization)) return sendError(response, 403, 'forbidden')
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ event: 'metrics_failed', err: String(error) }, 'metrics collection failed')
        sendError(response, 500, 'internalError')
      },
    )
  })
  server.headersTimeout = 10_000
  server.requestTimeout = 30_000

  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
    app.log.info({ event: 'metrics_listening', host, port }, 'metrics listener open')
  })
  app.addHook('onClose', async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
}
