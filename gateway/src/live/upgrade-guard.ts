import type { IncomingMessage } from 'node:http'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { GatewayMessage } from '@tradegate/shared'
import { errorBody } from '../lib/errors'
import { logRefusedUpgrade } from './socket-log'

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

export interface UpgradeGuardOptions {
  allowedOrigins: string[]
  maxSocketsPerAddress: number
  /** sockets open from an address now */
  socketsOf(address: string): number
  /** true once the gateway is shutting down */
  draining(): boolean
}

/**
 * Checks every upgrade request, whatever its path, before any WebSocket work is done: the path, a
 * drain, the origin and the address's socket count, each refused with its status. The websocket
 * plugin then destroys the socket of any upgrade answered with a status.
 */
export function addUpgradeGuard(app: FastifyInstance, options: UpgradeGuardOptions): void {
  const { metrics, log } = app
  // an upgrade answered by a hook that ran before the websocket plugin's own (the drain answer) is
  // not closed by that plugin: close it here, or its socket would outlive the answer and hold the
  // server open
  app.addHook('onResponse', (request, _reply, done) => {
    // Node marks a request that came through the server's 'upgrade' event
    const upgrade = (request.raw as IncomingMessage & { upgrade?: boolean }).upgrade
    if (upgrade && request.ws !== true) request.raw.socket.destroy()
    done()
  })
  // a callback hook, not an async one: a plain request passes without a promise made for it
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.ws) return done()
    const path = SOCKET_PATH.exec(request.url)
    if (!path) {
      metrics.wsRefused.inc({ reason: 'path' })
      logRefusedUpgrade(log, 404, 'path')
      refuseUpgrade(reply, 404)
      return
    }
    const clientId = path[1]!
    if (options.draining()) {
      metrics.wsRefused.inc({ reason: 'draining' })
      logRefusedUpgrade(log, 503, 'draining', clientId)
      refuseUpgrade(reply, 503)
      return
    }
    if (!originAllowed(request.headers.origin, request.headers.host, options.allowedOrigins)) {
      metrics.wsRefused.inc({ reason: 'origin' })
      logRefusedUpgrade(log, 403, 'origin', clientId, request.headers.origin)
      refuseUpgrade(reply, 403)
      return
    }
    if (options.socketsOf(request.ip) >= options.maxSocketsPerAddress) {
      metrics.wsRefused.inc({ reason: 'too_many_sockets' })
      logRefusedUpgrade(log, 429, 'tooManySockets', clientId)
      refuseUpgrade(reply, 429)
      return
    }
    done()
  })
}
