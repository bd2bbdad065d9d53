import type { LRUCache } from 'lru-cache'
import { growingLru } from '../lib/growing-lru'
import type { FastifyBaseLogger } from 'fastify'
import { BUNDLE_LANGUAGES, isCode200, type CachePolicy } from '@tradegate/shared'
import type { RedisClient } from '../plugins/external/redis'
import { withDeadline } from '../lib/deadline'
import { encodeStoredAnswer, type AnswerEncoding } from '../plugins/external/compress'
import type { UpstreamResponse } from '../upstream/upstream'

// Two tiers of cached upstream answers: this process's LRU in front of Redis, shared by every instance.
// The serve-stale rule is ours, not lru-cache's fetchMethod/allowStale: measured (docs/adr/0009,
// `npx tsx test/api/platform-check.ts`), allowStale served an answer 260 ms old through a 60 ms stale
// window (its stale age is unbounded), and a fetchMethod cannot hand the caller an answer it does not
// store (an error envelope must pass through uncached); nor does it know the shared Redis tier.

export interface CachedAnswer {
  storedAt: number
  contentType: string
  body: Buffer
  /** the body compressed once when this instance stored it; absent for small answers */
  encoded?: Record<AnswerEncoding, Buffer> | null
}

export type CacheResult = 'hit' | 'miss' | 'stale'

export interface CacheOutcome {
  result: CacheResult
  /** the cached answer to send; absent when upstream's answer is passed on uncached */
  answer?: CachedAnswer
  /** present when this request's outcome came from an upstream call */
  upstream?: UpstreamResponse
}

export interface ResponseCacheOptions {
  maxEntries: number
  redis: RedisClient | null
  /** prefix of every Redis key, ending before `cache:` */
  redisPrefix: string
  log: FastifyBaseLogger
  /** a shared-tier read slower than this counts as a miss of that tier */
  redisTimeoutMs?: number
  /**
   * how long past its stale window an answer is still kept, and sent when the upstream fails to answer
   * (stale-if-error: CACHE_STALE_IF_ERROR_MS); 0 keeps only the stale window
   */
  staleIfErrorMs?: number
}

const KNOWN_LANGUAGES: ReadonlySet<string> = new Set(BUNDLE_LANGUAGES)

/**
 * A language header as the cache keys it and the upstream is asked in: one of the 16 bundle languages
 * (a region such as `de-AT` by its language), or nothing, the upstream's default. So a cached call has
 * at most 17 answers per language header, whatever values clients send.
 */
export function cacheLanguage(value: string | undefined): string {
  if (value === undefined) return ''
  if (KNOWN_LANGUAGES.has(value)) return value
  const primary = value.split(/[-_]/, 1)[0]!.toLowerCase()
  return KNOWN_LANGUAGES.has(primary) ? primary : ''
}

const FIELD_SEPARATOR = 0x0a

/** Only complete code-200 JSON answers are kept; everything else passes through uncached. */
function isStorable(response: UpstreamResponse): boolean {
  if (response.status !== 200) return false
  try {
    const envelope: unknown = JSON.parse(response.body.toString('utf8'))
    return typeof envelope === 'object' && envelope !== null && isCode200(envelope as { code: number })
  } catch {
    return false
  }
}

function encodeAnswer(answer: CachedAnswer): Buffer {
  return Buffer.concat([Buffer.from(`${answer.storedAt}\n${answer.contentType}\n`), answer.body])
}

function decodeAnswer(raw: Buffer): CachedAnswer | null {
  const first = raw.indexOf(FIELD_SEPARATOR)
  const second = first < 0 ? -1 : raw.indexOf(FIELD_SEPARATOR, first + 1)
  if (second < 0) return null
  const storedAt = Number(raw.subarray(0, first).toString())
  if (!Number.isFinite(storedAt)) return null
  return { storedAt, contentType: raw.subarray(first + 1, second).toString(), body: raw.subarray(second + 1) }
}

export class ResponseCache {
  private readonly local: LRUCache<string, CachedAnswer>
  private readonly inFlight = new Map<string, Promise<CacheOutcome>>()
  private readonly keyPrefix: string
  private readonly redisTimeoutMs: number
  private readonly staleIfErrorMs: number
  private sharedTierFailing = false
  private sharedTierSeenReady = false

  constructor(private readonly options: ResponseCacheOptions) {
    this.local = growingLru(options.maxEntries)
    this.keyPrefix = `${options.redisPrefix}cache:`
    this.redisTimeoutMs = options.redisTimeoutMs ?? 250
    this.staleIfErrorMs = options.staleIfErrorMs ?? 0
  }

  /** How long an answer is kept at all: past this age not even a failing upstream makes it worth sending. */
  private keptMs(policy: CachePolicy): number {
    return policy.freshMs + Math.max(policy.staleMs, this.staleIfErrorMs)
  }

  /** Answers from the cache when it can, otherwise calls `fetch` once per key however many requests wait. */
  serve(key: string, policy: CachePolicy, fetch: () => Promise<UpstreamResponse>): Promise<CacheOutcome> {
    const held = this.serveHeld(key, policy, fetch)
    if (held) return Promise.resolve(held)
    return this.singleFlight(key, () => this.load(key, policy, fetch, this.local.get(key)))
  }

  /**
   * This instance's answer, fresh or within its stale window (then refreshed in the background), without
   * waiting on anything; undefined when the answer must come from Redis or the upstream (`serve`).
   */
  serveHeld(
    key: string,
    policy: CachePolicy,
    fetch: () => Promise<UpstreamResponse>,
  ): CacheOutcome | undefined {
    const local = this.local.get(key)
    if (!local) return undefined
    const age = Date.now() - local.storedAt
    if (age < policy.freshMs) return { result: 'hit', answer: local }
    if (age < policy.freshMs + policy.staleMs) {
      this.refreshLater(key, policy, fetch, local)
      return { result: 'stale', answer: local }
    }
    // kept for a failing upstream (`load` sends it if the upstream fails to answer)
    if (age >= this.keptMs(policy)) this.local.delete(key)
    return undefined
  }

  /** This instance's answer while it is fresh, else undefined; nothing else is done (no refresh, no delete). */
  freshHeld(key: string, policy: CachePolicy): CachedAnswer | undefined {
    const local = this.local.get(key)
    return local !== undefined && Date.now() - local.storedAt < policy.freshMs ? local : undefined
  }

  /** Empties this instance's tier and the shared tier; returns how many shared entries went. */
  async purge(): Promise<number> {
    this.local.clear()
    const redis = this.options.redis
    if (!redis || redis.status !== 'ready') return 0
    const nodes = 'nodes' in redis && typeof redis.nodes === 'function' ? redis.nodes('master') : [redis]
    let removed = 0
    for (const node of nodes) {
      let cursor = '0'
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${this.keyPrefix}*`, 'COUNT', 500)
        cursor = next
        // one key per call so a cluster never sees a cross-slot command
        for (const key of keys) removed += await node.unlink(key)
      } while (cursor !== '0')
    }
    return removed
  }

  private singleFlight(key: string, work: () => Promise<CacheOutcome>): Promise<CacheOutcome> {
    const running = this.inFlight.get(key)
    if (running) return running
    const started = work().finally(() => this.inFlight.delete(key))
    this.inFlight.set(key, started)
    return started
  }

  private refreshLater(
    key: string,
    policy: CachePolicy,
    fetch: () => Promise<UpstreamResponse>,
    fallback: CachedAnswer,
  ): void {
    // after the current flight for this key, if any, has left the map
    setImmediate(() => {
      if (this.inFlight.has(key)) return
      this.singleFlight(key, () => this.load(key, policy, fetch, fallback)).catch((error: unknown) => {
        this.options.log.warn(
          { event: 'cache_refresh_failed', key, err: String(error) },
          'cache refresh failed',
        )
      })
    })
  }

  /**
   * The answer from Redis or the upstream. `localStale` is this instance's answer past its fresh time:
   * within the stale window while a refresh runs in the background, or older and kept only to be sent if
   * the upstream fails (stale-if-error), as is a shared answer of that age.
   */
  private async load(
    key: string,
    policy: CachePolicy,
    fetch: () => Promise<UpstreamResponse>,
    localStale?: CachedAnswer,
  ): Promise<CacheOutcome> {
    const refreshing =
      localStale !== undefined && Date.now() - localStale.storedAt < policy.freshMs + policy.staleMs
    let fallback = localStale ?? null
    const shared = await this.readShared(key)
    if (shared) {
      const age = Date.now() - shared.storedAt
      if (age < policy.freshMs) {
        shared.encoded = await encodeStoredAnswer(shared.body)
        this.local.set(key, shared)
        return { result: 'hit', answer: shared }
      }
      if (age < policy.freshMs + policy.staleMs && !refreshing) {
        shared.encoded = await encodeStoredAnswer(shared.body)
        this.local.set(key, shared)
        this.refreshLater(key, policy, fetch, shared)
        return { result: 'stale', answer: shared }
      }
      if (age < this.keptMs(policy) && (!fallback || shared.storedAt > fallback.storedAt)) {
        shared.encoded ??= await encodeStoredAnswer(shared.body)
        fallback = shared
      }
    }

    let upstream: UpstreamResponse
    try {
      upstream = await fetch()
    } catch (error) {
      if (fallback) return { result: 'stale', answer: fallback }
      throw error
    }
    if (isStorable(upstream)) {
      const contentType = String(upstream.headers['content-type'] ?? 'application/json')
      const answer: CachedAnswer = {
        storedAt: Date.now(),
        contentType,
        body: upstream.body,
        encoded: await encodeStoredAnswer(upstream.body),
      }
      this.local.set(key, answer)
      void this.writeShared(key, answer, policy)
      return { result: 'miss', answer, upstream }
    }
    if (fallback) return { result: 'stale', answer: fallback, upstream }
    return { result: 'miss', upstream }
  }

  private async readShared(key: string): Promise<CachedAnswer | null> {
    const redis = this.sharedTier()
    if (!redis) return null
    try {
      const raw = await withDeadline(redis.getBuffer(this.keyPrefix + key), this.redisTimeoutMs)
      this.sharedTierAnswered()
      return raw ? decodeAnswer(raw) : null
    } catch (error) {
      this.sharedTierFailed(error)
      return null
    }
  }

  private async writeShared(key: string, answer: CachedAnswer, policy: CachePolicy): Promise<void> {
    const redis = this.sharedTier()
    if (!redis) return
    try {
      await redis.set(this.keyPrefix + key, encodeAnswer(answer), 'PX', this.keptMs(policy))
      this.sharedTierAnswered()
    } catch (error) {
      this.sharedTierFailed(error)
    }
  }

  private sharedTier(): RedisClient | null {
    const redis = this.options.redis
    if (!redis) return null
    if (redis.status !== 'ready') {
      // still making its first connection at start (the coin list is read before Redis is up): not an
      // outage worth a warning, just nothing shared yet
      if (this.sharedTierSeenReady) this.sharedTierFailed(new Error(`redis ${redis.status}`))
      return null
    }
    this.sharedTierSeenReady = true
    return redis
  }

  private sharedTierFailed(error: unknown): void {
    if (this.sharedTierFailing) return
    this.sharedTierFailing = true
    this.options.log.warn(
      { event: 'cache_shared_tier_down', err: String(error) },
      'cache: Redis unavailable, serving from the in-process tier only',
    )
  }

  private sharedTierAnswered(): void {
    if (!this.sharedTierFailing) return
    this.sharedTierFailing = false
    this.options.log.info({ event: 'cache_shared_tier_up' }, 'cache: Redis answering again')
  }
}
