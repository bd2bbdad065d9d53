import type { FastifyBaseLogger } from 'fastify'
import type { LRUCache } from 'lru-cache'
import { withDeadline } from '../lib/deadline'
import { growingLru } from '../lib/growing-lru'
import type { RedisClient } from '../plugins/external/redis'
import type { SessionEnd } from './session-end'
import { tokenKey } from './user-resolver'

// Which user each token belongs to, and which sessions have ended. The upstream ends sessions by
// user (a sign-out, a new login or fund password, an expiry, a logout pushed on its feed), so an
// end here reaches every token of that user the gateway has seen: the ones this instance learned,
// and, through the end notice other instances receive, the ones they learned. Ended tokens are
// refused without asking the upstream for a day, in memory and, hashed, in Redis for instances
// that missed the notice. Tokens are known only by their hash (tokenKey), never in logs or Redis.
//
// The registry sends nothing itself: whoever carries notices between instances (the live part's
// bus) listens with onAnnounce and hands what arrives to receive; whoever holds sessions (sockets)
// listens with onEnded.

/** How long an ended token stays refused: far longer than any answer about it stays cached. */
export const ENDED_TTL_MS = 24 * 60 * 60 * 1000
/** Ended tokens remembered in memory: about 100 bytes each, so at most about 10 MB. */
const MAX_ENDED = 100_000
/**
 * Tokens whose user is remembered (the least recently used go first): about 150 bytes each with
 * the per-user index, so at most about 8 MB. A token forgotten here is still ended by the upstream,
 * which refuses it on its next use; the gateway then ends it in turn.
 */
export const MAX_KNOWN_TOKENS = 50_000
/**
 * Instances compare when a token was learned with when its user's sessions ended, each by its own
 * clock: a token learned up to this long after the end is taken to predate it, since a new sign-in
 * that fast after a sign-out is less likely than clocks that disagree by that much.
 */
const CLOCK_MARGIN_MS = 1000
const NOTICE_PREFIX = 'session-ended:'
/** How long telling the sockets waits for Redis to store an end: a Redis that does not answer holds it no longer. */
const STORE_WAIT_MS = 1000
/**
 * How long a request waits for Redis to say whether its token ended elsewhere: past it the request
 * goes on, and the upstream, which ended the session first, refuses it itself.
 */
const LOOKUP_WAIT_MS = 250

/** An end as it travels: the user, when known, and the tokens the sender knew to be theirs. */
export interface SessionEndNotice {
  how: SessionEnd
  /** when the sessions ended, by the sender's clock: tokens learned later belong to a new sign-in */
  at: number
  userId: string | null
  keys: string[]
}

export interface SessionRegistryOptions {
  redis: RedisClient | null
  /** the deployment's Redis key prefix */
  prefix: string
  log: FastifyBaseLogger
  endedTtlMs?: number
}

interface KnownToken {
  userId: string
  learnedAt: number
}

export class SessionRegistry {
  /** token key -> how its session ended, as far as this instance has heard */
  private readonly ended: LRUCache<string, SessionEnd>
  /** token key -> its user, learned when a user-info answer named it */
  private readonly owners: LRUCache<string, KnownToken>
  /** user id -> the keys of `owners` that belong to them */
  private readonly byUser = new Map<string, Set<string>>()
  /**
   * user id -> when the latest end of their sessions applied here happened. A notice of that same end
   * again (its echo from the carrier, another instance passing on tokens only it knew) ends only the
   * tokens it names: the user's others learned since are sign-ins made after the end.
   */
  private readonly userEnds: LRUCache<string, number>
  private readonly announcers: Array<(notice: string) => Promise<void> | void> = []
  private readonly endedListeners: Array<(keys: string[]) => void> = []
  private readonly endedTtlMs: number

  constructor(private readonly options: SessionRegistryOptions) {
    this.endedTtlMs = options.endedTtlMs ?? ENDED_TTL_MS
    this.ended = growingLru(MAX_ENDED, { ttl: this.endedTtlMs })
    this.userEnds = growingLru(MAX_KNOWN_TOKENS, { ttl: this.endedTtlMs })
    this.owners = growingLru(MAX_KNOWN_TOKENS, {
      ttl: this.endedTtlMs,
      dispose: (known, key) => this.unindex(known.userId, key),
    })
  }

  /** Someone carries this instance's end notices to the others (and back to it, which is harmless). */
  onAnnounce(announce: (notice: string) => Promise<void> | void): void {
    this.announcers.push(announce)
  }

  /** Called with the keys of tokens that just ended here, once each. */
  onEnded(listener: (keys: string[]) => void): void {
    this.endedListeners.push(listener)
  }

  /** A user-info answer named the token's user. The first sighting counts: that is when it was valid. */
  learn(key: string, userId: string): void {
    const known = this.owners.get(key)
    if (known?.userId === userId) return
    if (known) this.owners.delete(key)
    this.owners.set(key, { userId, learnedAt: Date.now() })
    let keys = this.byUser.get(userId)
    if (!keys) this.byUser.set(userId, (keys = new Set()))
    keys.add(key)
  }

  userOf(key: string): string | undefined {
    return this.owners.get(key)?.userId
  }

  /** True when this instance has heard that the token's session ended: no Redis call. */
  endedHere(key: string): boolean {
    return this.ended.has(key)
  }

  /**
   * True when the session ended as far as this instance has heard, or as Redis remembers. Every
   * request and socket sign-in asks this, not endedHere: another instance stores an end before it
   * tells its sockets, while its notice reaches this instance some time later, so only Redis makes
   * "told anywhere" mean "refused everywhere".
   */
  async isEnded(key: string): Promise<boolean> {
    if (this.ended.has(key)) return true
    const redis = this.options.redis
    if (!redis || redis.status !== 'ready') return false
    try {
      return (await withDeadline(redis.exists(this.redisKey(key)), LOOKUP_WAIT_MS)) === 1
    } catch {
      // Redis went away or is slow: the notices this instance heard still hold
      return false
    }
  }

  /**
   * Ends the sessions of a token's user (or of the user alone, for a logout the feed pushed) here
   * and on every instance. Resolves once the notice is handed over and the ended tokens are stored
   * (or storing failed), so whatever the caller does next comes after both.
   */
  async end(how: SessionEnd, ending: { token?: string; userId?: string }): Promise<void> {
    const key = ending.token === undefined ? null : tokenKey(ending.token)
    const userId = ending.userId ?? (key ? this.userOf(key) : undefined) ?? null
    const keys = userId ? [...(this.byUser.get(userId) ?? [])] : []
    if (key && !keys.includes(key)) keys.push(key)
    const notice: SessionEndNotice = { how, at: Date.now(), userId, keys }
    const stored = this.apply(notice)
    const wire = encodeNotice(notice)
    await Promise.all([stored, ...this.announcers.map((announce) => announce(wire))])
  }

  /** A notice from the carrier: this instance's own coming back (which adds nothing), or another's. */
  receive(notice: string): void {
    const decoded = decodeNotice(notice)
    if (decoded) void this.apply(decoded)
  }

  /**
   * Marks ended the notice's tokens and every token of its user this instance learned before the
   * end, tells the listeners, and stores them. A token-expired answer about a token nobody here has
   * seen marks nothing: the upstream refuses it anyway, and a made-up token is not worth a day here.
   */
  private apply(notice: SessionEndNotice): Promise<void> {
    const keys = new Set<string>()
    const owners = new Set<string>()
    if (notice.userId) owners.add(notice.userId)
    for (const key of notice.keys) {
      const owner = this.owners.get(key)?.userId
      if (owner) owners.add(owner)
      if (owner || notice.userId || notice.how === 'revoked') keys.add(key)
    }
    for (const owner of owners) {
      if (this.userEnds.get(owner) === notice.at) continue
      this.userEnds.set(owner, notice.at)
      for (const key of this.byUser.get(owner) ?? []) {
        const learnedAt = this.owners.peek(key)?.learnedAt ?? 0
        if (learnedAt <= notice.at + CLOCK_MARGIN_MS) keys.add(key)
      }
    }
    const fresh = [...keys].filter((key) => !this.ended.has(key))
    if (fresh.length === 0) return Promise.resolve()
    for (const key of fresh) this.ended.set(key, notice.how)
    // tokens of the user only this instance had seen: the others are told, so they refuse them too
    const extra = fresh.filter((key) => !notice.keys.includes(key))
    if (extra.length > 0) {
      const wire = encodeNotice({ ...notice, userId: notice.userId ?? [...owners][0] ?? null, keys: extra })
      for (const announce of this.announcers) void announce(wire)
    }
    // the listeners (the sockets) hear of it once it is stored: whoever has been told their session
    // ended finds every instance refusing it, even one the notice has not reached yet
    const told = () => {
      for (const listener of this.endedListeners) listener(fresh)
    }
    return withDeadline(this.store(fresh), STORE_WAIT_MS).then(told, told)
  }

  private async store(keys: string[]): Promise<void> {
    const redis = this.options.redis
    if (!redis) return
    try {
      await Promise.all(keys.map((key) => redis.set(this.redisKey(key), '1', 'PX', this.endedTtlMs)))
    } catch (error) {
      this.options.log.warn(
        { event: 'session_store_failed', err: String(error) },
        'ended session not stored: other instances learn of it only from the bus',
      )
    }
  }

  private unindex(userId: string, key: string): void {
    const keys = this.byUser.get(userId)
    if (!keys?.delete(key) || keys.size > 0) return
    this.byUser.delete(userId)
  }

  private redisKey(key: string): string {
    return `${this.options.prefix}revoked:${key}`
  }
}

/** `session-ended:<how>:<at>:<userId>:<key>,<key>`: user ids are word characters, keys base64url. */
function encodeNotice(notice: SessionEndNotice): string {
  return `${NOTICE_PREFIX}${notice.how}:${notice.at}:${notice.userId ?? ''}:${notice.keys.join(',')}`
}

function decodeNotice(notice: string): SessionEndNotice | null {
  if (!notice.startsWith(NOTICE_PREFIX)) return null
  const [how, at, userId, keys] = notice.slice(NOTICE_PREFIX.length).split(':')
  if ((how !== 'revoked' && how !== 'expired') || keys === undefined) return null
  const time = Number(at)
  if (!Number.isFinite(time)) return null
  return { how, at: time, userId: userId || null, keys: keys ? keys.split(',') : [] }
}
