import type { Server } from 'node:http'
import Fastify, { type FastifyHttpOptions, type FastifyInstance } from 'fastify'
import type { GatewayConfig } from './config'
import { metricsPlugin } from './plugins/metrics'
import { healthPlugin } from './plugins/health'
import { redisPlugin } from './plugins/redis'
import { loggerOptions } from './plugins/logger'
import { livePlugin } from './live/plugin'

/** Builds the gateway: registers its plugins in order, and nothing else. */
export async function buildGateway(config: GatewayConfig): Promise<FastifyInstance> {
  const options: FastifyHttpOptions<Server> = {
    logger: loggerOptions(config),
    // a hop count is valid for Fastify's proxy-addr although its types leave it out
    trustProxy: parseTrustProxy(config.TRUST_PROXY) as boolean | string,
    bodyLimit: config.BODY_LIMIT_BYTES,
    maxParamLength: 200,
    http: { maxHeaderSize: config.HEADER_LIMIT_BYTES },
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }
  const app = Fastify(options)
  app.server.headersTimeout = config.HEADERS_TIMEOUT_MS

  await app.register(metricsPlugin, { instance: config.INSTANCE_ID })
  await app.register(healthPlugin)
  await app.register(redisPlugin, { url: config.REDIS_URL, prefix: config.REDIS_PREFIX })
  await app.register(livePlugin, { config })
  return app
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true
  if (value === 'false' || value === '') return false
  if (/^\d+$/.test(value)) return Number(value)
  return value
}
