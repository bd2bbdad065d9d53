import type { FastifyServerOptions } from 'fastify'
import type { GatewayConfig } from '../config'

// Secrets that must never reach a log line, wherever they sit in a request.
export const REDACTED_PATHS = [
  'req.headers.satoken',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-token"]',
  'req.headers["x-feed-token"]',
  'satoken',
  'password',
  'pwd',
  'code',
  'emailCode',
]

export function loggerOptions(config: GatewayConfig): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    base: { instance: config.INSTANCE_ID },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  }
}
