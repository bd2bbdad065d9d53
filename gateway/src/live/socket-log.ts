import type { FastifyBaseLogger } from 'fastify'
import { WS_CLOSE } from '@tradegate/shared'

// The client socket events operators follow with jq or Loki: a stable `event` name each, the
// instance (bound on every line) and a socketId, unique within the instance, that ties one socket's
// lines together. docs/operations.md documents every field.

/** ws reports a frame over maxPayload as this error, then closes the socket with 1009. */
const PAYLOAD_TOO_LARGE = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
/** the close reason a slow socket gets */
export const SLOW_CONSUMER = 'slow consumer'
/** the reason logged for a socket cut because it stopped answering pings */
export const PING_TIMEOUT = 'pingTimeout'

export class SocketLog {
  private readonly openedAt = Date.now()
  /** the close the gateway started, if it did: the client's own close code says nothing about why */
  private serverClose: { code: number; reason: string } | null = null

  constructor(
    private readonly log: FastifyBaseLogger,
    readonly socketId: number,
    private readonly clientId: string,
  ) {}

  connected(sockets: number): void {
    const { socketId, clientId } = this
    this.log.info({ event: 'socket_connected', socketId, clientId, sockets }, 'socket connected')
  }

  /** The gateway closes (or, with 1006, cuts) the socket; the closed line reports this close. */
  closing(code: number, reason: string): void {
    this.serverClose ??= { code, reason }
  }

  /** The `reason` label of gateway_ws_closed_total for this socket's close. */
  closeKind(): 'client' | 'ping_timeout' | 'slow_close' | 'limit' | 'shutdown' | 'server' {
    const close = this.serverClose
    if (!close) return 'client'
    if (close.reason === PING_TIMEOUT) return 'ping_timeout'
    if (close.code === WS_CLOSE.tryAgainLater) return 'slow_close'
    if (close.code === WS_CLOSE.policyViolation || close.code === WS_CLOSE.tooLarge) return 'limit'
    if (close.code === WS_CLOSE.goingAway) return 'shutdown'
    return 'server'
  }

  closed(code: number, reason: string, sockets: number): void {
    const { socketId, clientId, serverClose } = this
    const by = serverClose ? 'server' : 'client'
    const ms = Date.now() - this.openedAt
    this.log.info(
      { event: 'socket_closed', socketId, clientId, by, ...(serverClose ?? { code, reason }), ms, sockets },
      'socket closed',
    )
  }

  /** the client reads slower than its topics tick; the socket is closed with 1013 */
  slowClosed(bufferedBytes: number): void {
    const { socketId, clientId } = this
    this.closing(WS_CLOSE.tryAgainLater, SLOW_CONSUMER)
    this.log.warn(
      { event: 'socket_slow_closed', socketId, clientId, bufferedBytes },
      'socket closed: client reads too slowly',
    )
  }

  /** `limit` is the message the client receives: tooManyFrames, tooManySubscriptions, payloadTooLarge */
  limitHit(limit: string): void {
    const { socketId, clientId } = this
    if (limit === 'payloadTooLarge') this.closing(WS_CLOSE.tooLarge, '')
    else this.closing(WS_CLOSE.policyViolation, limit)
    this.log.warn({ event: 'socket_limit_hit', socketId, clientId, limit }, 'socket limit hit')
  }

  /** the socket's session ended elsewhere (sign-out, new password, token expired); the socket stays open */
  sessionEnded(): void {
    const { socketId, clientId } = this
    this.log.info({ event: 'socket_session_ended', socketId, clientId }, 'socket session ended')
  }

  error(error: Error & { code?: string }): void {
    if (error.code === PAYLOAD_TOO_LARGE) return this.limitHit('payloadTooLarge')
    const { socketId, clientId } = this
    this.log.debug({ event: 'socket_error', socketId, clientId, err: error.message }, 'socket error')
  }
}

const MAX_LOGGED_ORIGIN = 200

/** An upgrade answered with an HTTP error instead of a socket; the per-address cap counts as a limit hit. */
export function logRefusedUpgrade(
  log: FastifyBaseLogger,
  status: number,
  reason: 'path' | 'draining' | 'origin' | 'tooManySockets' | 'handshake',
  clientId?: string,
  origin?: string,
): void {
  if (reason === 'tooManySockets') {
    log.warn({ event: 'socket_limit_hit', clientId, limit: reason, status }, 'socket limit hit')
    return
  }
  const shownOrigin = reason === 'origin' ? (origin ?? '').slice(0, MAX_LOGGED_ORIGIN) : undefined
  log.info({ event: 'socket_refused', clientId, reason, status, origin: shownOrigin }, 'socket refused')
}
