import type { FastifyReply } from 'fastify'
import type { GatewayMessage } from '@tradegate/shared'
import { errorBody } from '../lib/errors'

// Checks made on a socket's HTTP upgrade request, before any WebSocket work is done.

export const SOCKET_PATH = /^\/ws\/([\w-]{1,64})\/?(?:\?.*)?$/

/** ALLOWED_ORIGINS empty: only pages served from the same host; no Origin header: a non-browser client. */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: string[],
): boolean {
  if (!origin) return true
  if (allowed.length > 0) return allowed.includes('*') || allowed.includes(origin)
  try {
    return new URL(origin).host === host
  } catch {
    return false
  }
}

export function parseAllowedOrigins(value: string): string[] {
  return value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean)
}

/** What a refused upgrade is answered with: the status's message key and, where waiting helps, when to retry. */
const REFUSALS = {
  403: { msg: 'forbidden', retryAfterSeconds: 0 },
  404: { msg: 'notFound', retryAfterSeconds: 0 },
  // a socket of the address must close first; sockets live long, so no quick retry
  429: { msg: 'tooManyRequests', retryAfterSeconds: 30 },
  // draining: the load balancer sends the retry to another instance
  503: { msg: 'serviceUnavailable', retryAfterSeconds: 1 },
} as const satisfies Record<number, { msg: GatewayMessage; retryAfterSeconds: number }>

/**
 * Answers a refused upgrade with its HTTP status and the `{code,msg}` body every refusal has, so a
 * client (and a load balancer) sees why instead of a reset connection. The websocket plugin closes
 * the connection once the answer is written.
 */
export function refuseUpgrade(reply: FastifyReply, status: keyof typeof REFUSALS): FastifyReply {
  const { msg, retryAfterSeconds } = REFUSALS[status]
  if (retryAfterSeconds > 0) reply.header('retry-after', retryAfterSeconds)
  return reply.code(status).header('connection', 'close').send(errorBody(status, msg))
}
