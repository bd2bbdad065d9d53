import type { FastifyBaseLogger } from 'fastify'
import { resyncFrame, type ResyncReason } from '@tradegate/shared'
import type { Metrics } from '../plugins/app/metrics'
import { RESYNC_TOPIC, type Bus } from './bus'
import { busMessage } from './bus-message'
import type { FeedClient } from './feed'
import type { FeedLease, LeaseState } from './lease'
import type { RedisBus } from './redis-bus'

// Who reads the upstream feed on this instance, and when its sockets are told they may have missed
// frames. The lease holder reads it for everyone. An instance that cannot receive the holder's frames
// (its bus is down) or cannot learn who the holder is (Redis does not answer its lease checks: the
// lease key's Cluster master lost, before its replica takes over) reads the feed itself, for its own
// sockets only, until both are back: a lost lease master never stalls the topics of any shard.
// After any gap (the feed lost and regained, a new holder taking over, a bus outage) the affected
// sockets get a resync frame, so nothing is lost silently.

export interface FeedRoleOptions {
  feed: FeedClient
  bus: Bus
  /** null without Redis: this instance alone reads the feed */
  lease: FeedLease | null
  redisBus: RedisBus | null
  leaseMs: number
  metrics: Pick<Metrics, 'feedLeader' | 'feedFallback' | 'busUp' | 'wsResyncs'>
  log: FastifyBaseLogger
  /** sends the frame to every local socket with a subscription; returns how many got it */
  broadcast(frame: string): number
}

/** why an instance reads the feed for its own sockets only */
type FallbackReason = 'bus_down' | 'lease_unreachable'

export class FeedRole {
  /** reading the feed for local sockets only, because the bus is down or the lease unreachable */
  fallback = false
  private fallbackReason: FallbackReason = 'bus_down'
  private fallbackSince = 0
  /** the next feed open follows a gap: another holder's frames stopped before this one took over */
  private takeover = false
  /** a fallback with the bus still up takes the holder's frames until its own feed flows */
  private switchPending = false
  private busWasDown = false
  /**
   * A message this instance read did not reach the bus (it could not publish, or not deliver at all):
   * other instances' sockets, and maybe its own, missed it. Told with a resync ahead of the next
   * message it publishes.
   */
  private holeInBus = false
  private readonly subscription

  constructor(private readonly options: FeedRoleOptions) {
    // only the holder of a lease that cannot have expired publishes to the other instances, so two
    // holders never publish at once, even while the old one has not yet learnt it lost the lease
    if (options.redisBus) options.redisBus.mayPublish = () => this.holdsLease()
    options.metrics.busUp.set(0)
    // every instance listens for resyncs; a reading instance publishes one after a gap
    this.subscription = options.bus.subscribe(RESYNC_TOPIC, ({ frame }) =>
      this.resyncSockets(frame.toString()),
    )
  }

  get reading(): boolean {
    return !this.options.lease || this.options.lease.leader || this.fallback
  }

  /**
   * Whether a frame this instance reads may reach its own sockets now: always while it reads alone or
   * is cut off from the bus; otherwise only while its lease cannot have passed to another instance,
   * whose frames the bus would bring as well. An unconfirmed holder (Redis was away) keeps serving
   * its own sockets until it renews.
   */
  private mayDeliver(): boolean {
    const { lease, redisBus } = this.options
    if (!lease || this.fallback || (redisBus && !redisBus.up)) return true
    return lease.leader && (!lease.confirmed || this.holdsLease())
  }

  /** A message read from the feed: delivered where it may be, and a hole it leaves announced once frames flow on. */
  frameRead(deliver: () => void): void {
    // a follower stopping its feed drops what is still in flight: the holder publishes it
    if (!(this.options.redisBus?.publishing ?? true)) this.holeInBus ||= this.reading
    else if (this.holeInBus) this.announceResync()
    if (this.mayDeliver()) deliver()
  }

  /** The state shown in /readyz's body as `feed`. */
  describe(): string {
    const { lease, feed, leaseMs } = this.options
    const socket = feed.connected ? '' : ', not connected'
    if (this.fallback) return `reading locally (${this.fallbackReason.replace('_', ' ')})${socket}`
    if (this.reading) return `reading${socket}`
    return Date.now() - (lease?.otherHolderSeenAt ?? 0) < 2 * leaseMs ? 'following' : 'no lease holder seen'
  }

  /** Without Redis: no lease, this instance reads the feed. */
  startAlone(): void {
    this.options.metrics.feedLeader.set(1)
    this.options.feed.start()
  }

  leaseChanged({ leader }: LeaseState): void {
    const { metrics, feed, lease } = this.options
    metrics.feedLeader.set(leader ? 1 : 0)
    if (leader) {
      if (this.fallback) this.endFallback('lease_won')
      // someone else held it: their frames stopped some time before ours start
      if (lease && lease.otherHolderSeenAt > 0) this.takeover = true
      feed.start()
      return
    }
    const cutOff = this.cutOff()
    if (cutOff) return this.startFallback(cutOff)
    void feed.stop()
  }

  busChanged(up: boolean): void {
    this.options.metrics.busUp.set(up ? 1 : 0)
    if (!up) this.busWasDown = true
    this.followCutOff('bus_up')
    if (!up || !this.busWasDown) return
    this.busWasDown = false
    // frames published while this instance was cut off from the bus never reached it
    this.resyncSockets(JSON.stringify(resyncFrame('bus')))
  }

  /** Redis answers this instance's lease checks again, or stopped answering them. */
  leaseReachableChanged(): void {
    this.followCutOff('lease_reachable')
  }

  /** What keeps a follower from the holder's frames, if anything (a holder reads the feed anyway). */
  private cutOff(): FallbackReason | null {
    const { lease, redisBus } = this.options
    if (!lease || lease.leader) return null
    if (redisBus && !redisBus.up) return 'bus_down'
    return lease.reachable ? null : 'lease_unreachable'
  }

  /** Reads the feed locally while cut off from the holder; back to the bus once nothing cuts it off. */
  private followCutOff(ended: 'bus_up' | 'lease_reachable'): void {
    const cutOff = this.cutOff()
    if (cutOff) return this.startFallback(cutOff)
    if (!this.fallback) return
    this.endFallback(ended)
    void this.options.feed.stop()
  }

  /** Data flows on the feed again (not merely a socket open): a gap behind it means a resync. */
  feedFlowing(regained: boolean): void {
    if (this.switchPending) this.switchToLocalFeed()
    if (!regained && !this.takeover) return
    this.takeover = false
    this.announceResync()
  }

  /** To every instance through the bus; only to this one's sockets while it may not publish. */
  private announceResync(): void {
    if (this.options.redisBus?.publishing) this.holeInBus = false
    this.options.bus.publish(RESYNC_TOPIC, busMessage(RESYNC_TOPIC, resyncFrame('feed')))
  }

  private holdsLease(): boolean {
    const { lease } = this.options
    return !lease || (lease.leader && lease.confirmed && Date.now() < lease.validUntil)
  }

  close(): void {
    this.subscription.unsubscribe()
  }

  private startFallback(reason: FallbackReason): void {
    this.fallbackReason = reason
    // the bus went too: nothing more comes from the holder
    if (reason === 'bus_down' && this.switchPending) this.switchToLocalFeed()
    if (this.fallback) return
    this.fallback = true
    this.fallbackSince = Date.now()
    const { feed, redisBus } = this.options
    if (feed.connected || reason === 'bus_down') {
      // this instance's own feed already runs (a holder whose lease ran out), or no holder's frame can
      // arrive: its own frames replace the bus's at once
      redisBus?.localFeedStarted()
    } else {
      // the holder's frames keep coming over the bus until this instance's own feed flows, and the
      // switch between them (a gap or an overlap) is then announced to its sockets with a resync
      this.switchPending = true
      this.takeover = true
    }
    this.options.metrics.feedFallback.set(1)
    this.options.log.warn(
      { event: 'feed_fallback_started', reason },
      'cut off from the feed lease holder: reading the upstream feed for this instance',
    )
    this.options.feed.start()
  }

  private switchToLocalFeed(): void {
    this.switchPending = false
    this.options.redisBus?.localFeedStarted()
  }

  private endFallback(reason: 'bus_up' | 'lease_reachable' | 'lease_won'): void {
    this.fallback = false
    // over before this instance's own feed flowed: no switch happened, so none is announced
    if (this.switchPending) this.switchPending = this.takeover = false
    this.options.redisBus?.localFeedStopped()
    this.options.metrics.feedFallback.set(0)
    const ms = Date.now() - this.fallbackSince
    this.options.log.info({ event: 'feed_fallback_stopped', reason, ms }, 'feed fallback stopped')
  }

  private resyncSockets(frame: string): void {
    const sockets = this.options.broadcast(frame)
    const reason = (JSON.parse(frame) as { reason: ResyncReason }).reason
    this.options.metrics.wsResyncs.inc({ reason }, sockets)
    this.options.log.info({ event: 'sockets_resynced', reason, sockets }, 'sockets told to resync')
  }
}
