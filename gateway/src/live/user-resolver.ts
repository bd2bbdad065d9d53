import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import { CALLS } from '@tradegate/shared'
import { upstreamHttpUrl } from '../config'

// Resolves a socket's satoken to a user id through the upstream's user-info call, cached briefly.
// Tokens are kept only as hashes and never logged.

export type UserResolution = { userId: string } | { error: 'notAuthorised' | 'upstreamUnavailable' }

export interface UserResolverOptions {
  upstreamUrl: string
  timeoutMs: number
  /** how long a resolved user id is reused */
  ttlMs?: number
  /** how long a rejected token is remembered, so a client cannot make us hammer the upstream */
  rejectedTtlMs?: number
  maxEntries?: number
}

export class UserResolver {
  private readonly cache: LRUCache<string, UserResolution>
  private readonly inflight = new Map<string, Promise<UserResolution>>()
  private readonly url: URL

  constructor(private readonly options: UserResolverOptions) {
    this.cache = new LRUCache({ max: options.maxEntries ?? 10_000, ttl: options.ttlMs ?? 30_000 })
    this.url = new URL(CALLS.userInfo.path, upstreamHttpUrl(options.upstreamUrl))
  }

  resolve(token: string): Promise<UserResolution> {
    const key = createHash('sha256').update(token).digest('base64url')
    const cached = this.cache.get(key)
    if (cached) return Promise.resolve(cached)
    let pending = this.inflight.get(key)
    if (!pending) {
      pending = this.fetchUser(token).then((resolution) => {
        this.inflight.delete(key)
        if ('userId' in resolution) this.cache.set(key, resolution)
        else if (resolution.error === 'notAuthorised')
          this.cache.set(key, resolution, { ttl: this.options.rejectedTtlMs ?? 5000 })
        return resolution
      })
      this.inflight.set(key, pending)
    }
    return pending
  }

  private async fetchUser(token: string): Promise<UserResolution> {
    let response: Response
    try {
      response = await fetch(this.url, {
        method: CALLS.userInfo.method,
        headers: { satoken: token, accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      })
    } catch {
      return { error: 'upstreamUnavailable' }
    }
    if (response.status >= 500) return { error: 'upstreamUnavailable' }
    let body: unknown
    try {
      body = await response.json()
    } catch {
      return { error: 'upstreamUnavailable' }
    }
    const envelope = body as { code?: unknown; data?: { userId?: unknown } } | null
    const userId = envelope?.data?.userId
    if (envelope?.code !== 200 || (typeof userId !== 'string' && typeof userId !== 'number')) {
      return { error: 'notAuthorised' }
    }
    const id = String(userId)
    // the id becomes a topic name, so it must look like one
    return /^[\w-]{1,64}$/.test(id) ? { userId: id } : { error: 'notAuthorised' }
  }
}
