import type { FastifyBaseLogger } from 'fastify'
import type { RedisClient } from '../plugins/external/redis'

// The feed lease: exactly one instance reads the upstream feed. The holder renews every third of
// the lease; when it dies the key expires and another instance takes it.

/** Renews or takes our lease: 1 when the key names us or was free, 0 when someone else holds it. */
const RENEW_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`

export interface LeaseState {
  leader: boolean
  /** renewed since the last Redis reconnect, so no other instance can hold it */
  confirmed: boolean
}

export interface FeedLeaseOptions {
  redis: RedisClient
  key: string
  holder: string
  leaseMs: number
  onChange(state: LeaseState): void
  /** Redis stopped or started answering this instance's lease checks (see `reachable`) */
  onReachableChange?(reachable: boolean): void
  log: FastifyBaseLogger
}

export class FeedLease {
  leader = false
  confirmed = false
  /** when another instance was last seen holding the lease */
  otherHolderSeenAt = 0
  /**
   * Until when the lease is surely ours: the last successful take or renewal was sent at least this
   * long ago minus the lease time, so the key cannot have expired on Redis before then. Past it another
   * instance may hold the lease, even if our next renewal has not yet told us.
   */
  validUntil = 0
  /**
   * Whether Redis answers the lease checks. Not, while a check has waited a whole lease for its answer
   * or checks have failed for that long (the lease key's master lost, before a replica takes over), or
   * once a holder could not renew in time. Then nobody can know who holds the lease, and nobody may
   * take it: the feed role reads the feed for this instance's own sockets until an answer comes.
   */
  reachable = true
  /** the first check still without an answer, or the first of a run of failed ones; 0 once answered */
  private unansweredSince = 0
  private timer: NodeJS.Timeout | null = null
  private ticking = false
  private stopped = true
  /** after our own Redis reconnect a follower waits a lease, so the holder can renew first */
  private quietUntil = 0

  private reconnecting = false

  private readonly onReady = (): void => {
    if (this.reconnecting) this.quietUntil = Date.now() + this.options.leaseMs
    this.reconnecting = false
    void this.tick()
  }
  private readonly onClose = (): void => {
    this.reconnecting = true
    this.setState(this.leader, false)
  }

  constructor(private readonly options: FeedLeaseOptions) {}

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    // a check left unanswered when the lease was stopped says nothing about Redis now
    this.unansweredSince = 0
    this.options.redis.on('ready', this.onReady)
    this.options.redis.on('close', this.onClose)
    this.timer = setInterval(() => void this.tick(), Math.max(50, Math.floor(this.options.leaseMs / 3)))
    void this.tick()
  }

  /** Stops renewing and, if we hold the lease, gives it up so another instance takes over at once. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.options.redis.off('ready', this.onReady)
    this.options.redis.off('close', this.onClose)
    const wasLeader = this.leader
    this.setState(false, false, 'released')
    if (!wasLeader || this.options.redis.status !== 'ready') return
    const { redis, key, holder } = this.options
    await redis.eval(RELEASE_SCRIPT, 1, key, holder).catch(() => {})
  }

  private async tick(): Promise<void> {
    // before anything that waits on Redis: a renewal that hangs (a frozen or failed master) must not
    // keep a holder that cannot renew reporting itself leader past the time another one may take over
    if (this.leader && !this.stopped && Date.now() >= this.validUntil) this.expired()
    if (this.unansweredSince > 0 && Date.now() - this.unansweredSince >= this.options.leaseMs)
      this.setReachable(false)
    if (this.ticking || this.stopped) return
    this.ticking = true
    try {
      const { redis, key, holder, leaseMs } = this.options
      if (redis.status !== 'ready') return
      const sentAt = Date.now()
      // a follower quiet after its own reconnect sends no check, so none can go unanswered
      if (!this.leader && sentAt < this.quietUntil) return
      if (this.unansweredSince === 0) this.unansweredSince = sentAt
      // the one script renews our lease, takes a free key, and takes back one still naming us (a lease
      // that ran out on our clock while its renewal was on the way), so a late renewal costs one tick
      const ours = await redis.eval(RENEW_SCRIPT, 1, key, holder, leaseMs)
      if (this.stopped) return
      this.unansweredSince = 0
      if (ours === 1) this.renewed(sentAt)
      else if (this.leader) this.lost()
      else this.otherHolderSeenAt = Date.now()
      // after the lease's outcome, so the role sees who holds it when it learns Redis answers again
      this.setReachable(true)
    } catch (error) {
      // Redis away: a holder keeps ingesting until its lease runs out (then `expired`, and the feed role
      // reads the feed for its own sockets if the bus is gone too)
      this.options.log.debug(
        { event: 'lease_error', err: (error as Error).message },
        'feed lease check failed',
      )
    } finally {
      this.ticking = false
    }
  }

  private renewed(sentAt: number): void {
    this.validUntil = sentAt + this.options.leaseMs
    this.setState(true, true)
  }

  /** Not renewed within the lease: it may be another instance's now, so this one leads no more. */
  private expired(): void {
    // told with the lost lease, not before it: the role reads the feed on for its own sockets
    this.reachable = false
    this.setState(false, false, 'expired')
  }

  private setReachable(reachable: boolean): void {
    if (reachable === this.reachable) return
    this.reachable = reachable
    this.options.onReachableChange?.(reachable)
  }

  private lost(): void {
    this.otherHolderSeenAt = Date.now()
    this.setState(false, false, 'taken')
  }

  /**
   * `reason` says why a lost lease went: another instance holds it (taken), we gave it up (released), or
   * we could not renew it in time (expired)
   */
  private setState(leader: boolean, confirmed: boolean, reason?: 'taken' | 'released' | 'expired'): void {
    if (leader === this.leader && confirmed === this.confirmed) return
    const changedLeader = leader !== this.leader
    this.leader = leader
    this.confirmed = confirmed
    if (changedLeader) {
      const { holder, leaseMs } = this.options
      if (leader) this.options.log.info({ event: 'lease_won', holder, leaseMs }, 'feed lease won')
      else this.options.log.info({ event: 'lease_lost', holder, reason }, 'feed lease lost')
    }
    this.options.onChange({ leader, confirmed })
  }
}
