import { createHash } from 'node:crypto'
import type { LRUCache } from 'lru-cache'
import { growingLru } from '../lib/growing-lru'
import { CALLS, TOKEN_HEADER } from '@tradegate/shared'
import type { Upstream } from './upstream'

// Resolves a socket's satoken to a user id through the upstream's user-info call, sent through the
// gateway's one upstream client and cached briefly. Tokens are kept only as hashes and never logged.

export type UserResolution = { userId: string } | { error: 'notAuthorised' | 'upstreamUnavailable' }

export interface UserResolverOptions {
  upstream: Pick<Upstream, 'request'>
  timeoutMs: number
  /** how long a resolved user id is reused */
  ttlMs?: number
  /** how long a rejected token is remembered, so a client cannot make us hammer the upstream */
  rejectedTtlMs?: number
  maxEntries?: number
  /** told of every token a user-info answer names, so sessions can be ended by user */
  onResolved?(key: string, userId: string): void
}

/** What a token is known by in caches, in Redis and on the bus: never the token itself. */
export function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

const USER_INFO_LABEL = CALLS.userInfo.path

export class UserResolver {
  private readonly cache: LRUCache<string, UserResolution>
  /** one upstream call per token however many sockets present it at once */
  private readonly inflight = new Map<string, Promise<UserResolution>>()

  constructor(private readonly options: UserResolverOptions) {
    this.cache = growingLru(options.maxEntries ?? 10_000, { ttl: options.ttlMs ?? 30_000 })
  }

  resolve(token: string, key = tokenKey(token)): Promise<UserResolution> {
    const cached = this.cache.get(key)
    if (cached) return Promise.resolve(cached)
    let pending = this.inflight.get(key)
    if (!pending) {
      const started = this.fetchUser(token).then((resolution) => {
        // a session ended while this call was out: its answer is not kept
        if (this.inflight.get(key) !== started) return resolution
        this.inflight.delete(key)
        if ('userId' in resolution) {
          this.cache.set(key, resolution)
          this.options.onResolved?.(key, resolution.userId)
        } else if (resolution.error === 'notAuthorised')
          this.cache.set(key, resolution, { ttl: this.options.rejectedTtlMs ?? 5000 })
        return resolution
      })
      this.inflight.set(key, (pending = started))
    }
    return pending
  }

  /** The token's user as the upstream says now, whatever is cached: for sessions whose end may have been missed. */
  revalidate(token: string, key = tokenKey(token)): Promise<UserResolution> {
    this.forget(key)
    return this.resolve(token, key)
  }

  /** Drops what is known about a token, and keeps no answer that is on its way. */
  forget(key: string): void {
    this.cache.delete(key)
    this.inflight.delete(key)
  }

  private async fetchUser(token: string): Promise<UserResolution> {
    let answer: { status: number; body: Buffer }
    try {
      answer = await this.options.upstream.request({
        method: CALLS.userInfo.method,
        path: CALLS.userInfo.path,
        headers: { [TOKEN_HEADER]: token, accept: 'application/json' },
        route: USER_INFO_LABEL,
        timeoutMs: this.options.timeoutMs,
      })
    } catch {
      return { error: 'upstreamUnavailable' }
    }
    if (answer.status >= 500) return { error: 'upstreamUnavailable' }
    const read = userOfAnswer(answer.body)
    if (read === undefined) return { error: 'upstreamUnavailable' }
    return read === null ? { error: 'notAuthorised' } : { userId: read }
  }
}

/**
 * The user a user-info answer names: undefined when the body is not JSON, null when it names none
 * (a refusal, an expired token) or an id that could not be a topic name.
 */
export function userOfAnswer(body: Buffer): string | null | undefined {
  let envelope: { code?: unknown; data?: { userId?: unknown } } | null
  try {
    envelope = JSON.parse(body.toString()) as typeof envelope
  } catch {
    return undefined
  }
  const userId = envelope?.data?.userId
  if (envelope?.code !== 200 || (typeof userId !== 'string' && typeof userId !== 'number')) return null
  const id = String(userId)
  // the id becomes a topic name, so it must look like one
  return /^[\w-]{1,64}$/.test(id) ? id : null
}
