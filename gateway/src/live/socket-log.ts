import type { FastifyBaseLogger } from 'fastify'

// The client socket events operators follow with jq or Loki: a stable `event` name each, the
// instance (bound on every line) and a socketId, unique within the instance, that ties one socket's
// lines together. docs/operations.md documents every field.

/** ws reports a frame over maxPayload as this error, then closes the socket with 1009. */
const PAYLOAD_TOO_LARGE = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'

export class SocketLog {
  private readonly openedAt = Date.now()

  constructor(
    private readonly log: FastifyBaseLogger,
    readonly socketId: number,
    private readonly clientId: string,
  ) {}

  connected(sockets: number): void {
    const { socketId, clientId } = this
    this.log.info({ event: 'socket_connected', socketId, clientId, sockets }, 'socket connected')
  }

  closed(code: number, reason: string, sockets: number): void {
    const { socketId, clientId } = this
    const ms = Date.now() - this.openedAt
    this.log.info({ event: 'socket_closed', socketId, clientId, code, reason, ms, sockets }, 'socket closed')
  }

  /** the client reads slower than its topics tick; the socket is closed with 1013 */
  slowClosed(bufferedBytes: number): void {
    const { socketId, clientId } = this
    this.log.warn(
      { event: 'socket_slow_closed', socketId, clientId, bufferedBytes },
      'socket closed: client reads too slowly',
    )
  }

  /** `limit` is the message the client receives: tooManyFrames, tooManySubscriptions, payloadTooLarge */
  limitHit(limit: string): void {
    const { socketId, clientId } = this
    this.log.warn({ event: 'socket_limit_hit', socketId, clientId, limit }, 'socket limit hit')
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
  reason: 'path' | 'draining' | 'origin' | 'tooManySockets',
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
