import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import { configWith, type GatewayConfig } from '../../src/config'
import { metricsPlugin } from '../../src/plugins/app/metrics'
import { healthPlugin } from '../../src/plugins/app/health'
import { redisPlugin } from '../../src/plugins/external/redis'
import { rateLimitPlugin } from '../../src/plugins/external/rate-limit'
import { apiPlugin } from '../../src/api/routes'
import { apiOptionsOf } from '../../src/app'
import { livePlugin } from '../../src/live/plugin'

// The live part of the gateway on a free port: the plugins it depends on (the rate limit, whose
// budget socket opens and auths draw on, generous unless a test sets it), the REST path (its
// upstream client reads the coin list and resolves tokens) and livePlugin, registered as
// buildGateway does.

export interface RunningGateway {
  app: FastifyInstance
  port: number
  /** ws://127.0.0.1:port/ws/<id> for a fresh client id */
  socketUrl(id?: string): string
  close(): Promise<void>
}

let clientCounter = 0

export async function startGateway(overrides: Partial<GatewayConfig>): Promise<RunningGateway> {
  const config = configWith({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: 1_000_000, ...overrides })
  const app = Fastify({ logger: { level: config.LOG_LEVEL } })
  await app.register(metricsPlugin, { instance: config.INSTANCE_ID })
  await app.register(healthPlugin)
  await app.register(redisPlugin, { url: config.REDIS_URL, prefix: config.REDIS_PREFIX })
  await app.register(rateLimitPlugin, { perMinute: config.RATE_LIMIT_PER_MINUTE })
  await app.register(apiPlugin, apiOptionsOf(config))
  await app.register(livePlugin, { config })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return {
    app,
    port,
    socketUrl: (id) => `ws://127.0.0.1:${port}/ws/${id ?? `client-${++clientCounter}`}`,
    close: () => app.close(),
  }
}
