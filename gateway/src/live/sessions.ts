import type { FastifyBaseLogger } from 'fastify'
import { LRUCache } from 'lru-cache'
import type { SessionEnd } from '../upstream/session-end'
import type { RedisClient } from '../plugins/external/redis'
import type { Bus } from './bus'
import type { Authentication, ClientSocket } from './client-socket'
import { tokenKey, type UserResolver } from '../upstream/user-resolver'

// Sessions that end: a sign-out, a new login password, or the upstream's token-expired answer.
// Every instance is told over the bus, forgets the token and ends that session's private streams.
// A revoked token (sign-out, password change) is also remembered, hashed, in Redis (in memory
// without Redis) for a day, so an instance that missed the notice still refuses it; an expired one
// is only announced, since the upstream refuses it by itself from then on.

/** How long a revoked token stays refused: far longer than any answer about it stays cached. */
export const REVOKED_TTL_MS = 24 * 60 * 60 * 1000
/** An expired token is refused here this long, covering user-info answers already on their way. */
const EXPIRED_TTL_MS = 60_000
const MAX_REMEMBERED = 100_000
const NOTICE_PREFIX = 'session-ended:'

export interface SessionEndsOptions {
  bus: Bus
  redis: RedisClient | null
  /** the deployment's Redis key prefix */
  prefix: string
  log: FastifyBaseLogger
  /** called on every instance for every ended session, with the token's key (see tokenKey) */
  onEnded(key: string, how: SessionEnd): void
  revokedTtlMs?: number
}

export class SessionEnds {
  /** token key -> ended, as far as this instance has heard */
  private readonly ended = new LRUCache<string, SessionEnd>({ max: MAX_REMEMBERED, ttl: EXPIRED_TTL_MS })
  private readonly revokedTtlMs: number

  constructor(private readonly options: SessionEndsOptions) {
    this.revokedTtlMs = options.revokedTtlMs ?? REVOKED_TTL_MS
    options.bus.onNotice((notice) => this.receive(notice))
  }

  /**
   * Ends a session on every instance. Resolves once the notice is on the bus and a revoked token
   * is stored (or storing failed), so whatever the caller does next comes after both.
   */
  async end(token: string, how: SessionEnd): Promise<void> {
    const key = tokenKey(token)
    const announced = this.options.bus.announce(`${NOTICE_PREFIX}${how}:${key}`)
    const redis = this.options.redis
    if (how === 'revoked' && redis) {
      try {
        await redis.set(this.redisKey(key), '1', 'PX', this.revokedTtlMs)
      } catch (error) {
        this.options.log.warn(
          { event: 'session_store_failed', err: String(error) },
          'revoked session not stored: other instances learn of it only from the bus',
        )
      }
    }
    await announced
  }

  /** True when this instance has heard that the session ended. */
  endedHere(key: string): boolean {
    return this.ended.has(key)
  }

  /** True when the session ended as far as this instance has heard, or as Redis remembers. */
  async isEnded(key: string): Promise<boolean> {
    if (this.ended.has(key)) return true
    const redis = this.options.redis
    if (!redis || redis.status !== 'ready') return false
    try {
      return (await redis.exists(this.redisKey(key))) === 1
    } catch {
      // Redis went away: the notices this instance heard still hold
      return false
    }
  }

  private receive(notice: string): void {
    if (!notice.startsWith(NOTICE_PREFIX)) return
    const [how, key] = notice.slice(NOTICE_PREFIX.length).split(':')
    if ((how !== 'revoked' && how !== 'expired') || !key) return
    this.ended.set(key, how, { ttl: how === 'revoked' ? this.revokedTtlMs : EXPIRED_TTL_MS })
    this.options.onEnded(key, how)
  }

  private redisKey(key: string): string {
    return `${this.options.prefix}revoked:${key}`
  }
}

export interface SessionAuthOptions extends Omit<SessionEndsOptions, 'onEnded'> {
  users: UserResolver
  /** takes one request from the address's rate-limit budget; false once it is spent */
  takeFromBudget(address: string): Promise<boolean>
}

/**
 * Socket auths and the sessions they start: an ended session's token is refused, every auth draws
 * on the address's request budget, and an ending session reaches exactly its own sockets.
 */
export class SessionAuth {
  readonly ends: SessionEnds
  /** token key -> the sockets signed in with it on this instance */
  private readonly bySession = new Map<string, Set<ClientSocket>>()

  constructor(private readonly options: SessionAuthOptions) {
    this.ends = new SessionEnds({
      ...options,
      onEnded: (key) => {
        options.users.forget(key)
        this.endSockets(key)
      },
    })
  }

  async authenticate(token: string, address: string): Promise<Authentication> {
    const key = tokenKey(token)
    if (await this.ends.isEnded(key)) return { refused: 'sessionEnded' }
    // each auth costs the upstream a user-info call, so it counts like a request
    if (!(await this.options.takeFromBudget(address))) return { refused: 'tooManyRequests' }
    const resolution = await this.options.users.resolve(token, key)
    if ('error' in resolution) return { refused: resolution.error }
    // the session may have ended while its user-info answer was on its way
    if (this.ends.endedHere(key)) return { refused: 'sessionEnded' }
    return { userId: resolution.userId, session: key }
  }

  /** A socket's session changed from `previous` to its current one. */
  moved(client: ClientSocket, previous: string | null): void {
    if (previous) this.remove(previous, client)
    if (!client.session) return
    let clients = this.bySession.get(client.session)
    if (!clients) this.bySession.set(client.session, (clients = new Set()))
    clients.add(client)
  }

  /** A socket closed. */
  left(client: ClientSocket): void {
    if (client.session) this.remove(client.session, client)
  }

  private endSockets(key: string): void {
    const clients = this.bySession.get(key)
    if (!clients) return
    this.bySession.delete(key)
    for (const client of clients) client.endSession()
  }

  private remove(key: string, client: ClientSocket): void {
    const clients = this.bySession.get(key)
    if (!clients?.delete(client) || clients.size > 0) return
    this.bySession.delete(key)
  }
}
