import { randomBytes } from 'node:crypto'
import { isLatestValueTopic } from '@tradegate/shared'
import type { Cluster, RedisOptions } from 'ioredis'
import type { Counter } from 'prom-client'
import {
  CLUSTER_SLOTS_REFRESH_MS,
  createRedis,
  ioredis,
  parseRedisUrl,
  type RedisClient,
} from '../plugins/external/redis'
import {
  isBookTopic,
  isWildcardTopic,
  keepsSnapshot,
  memberOf,
  type Bus,
  type BusHandler,
  type BusSubscription,
  type NoticeHandler,
} from './bus'
import { decodeBusMessage, encodeBusMessage, type BusMessage } from './bus-message'
import { SnapshotMemory } from './snapshots'

// Redis pub/sub bus: one subscriber connection, one SUBSCRIBE per topic while local handlers exist,
// snapshots in Redis mirrored in memory. Wire message: `<origin>|` then the encoded bus message
// (bus-message.ts), which is also what a snapshot key holds. Notices travel on one channel of their
// own, always subscribed: `<origin>|<notice>`.
//
// Local sockets get a frame at once; what goes to Redis waits for the end of the event-loop turn and
// leaves as one script call (TURN_SCRIPT): each key's last snapshot of the turn (earlier ones are
// already replaced), then every PUBLISH of the turn in order. Redis runs a script whole, so a reader
// sees the turn's snapshots with all of its frames or with none. On a Cluster each command goes on its
// own, and a reader that subscribes among them reads a snapshot at least as new as the frames it then
// receives, which the mirror tolerates (live frames win).

const SEPARATOR = 0x7c // '|'
const SNAPSHOT_TTL_SECONDS = 86_400
const RESUBSCRIBE_BATCH = 500
/** After reading the feed locally: how long bus frames older than the ones delivered are dropped. */
const LOCAL_DEDUPE_MS = 3000
/** Notices kept while they cannot be published (the oldest go first past this many): ends of sessions. */
const MAX_PENDING_NOTICES = 1000
/**
 * Kept notices are published when the bus returns and once more this long after: another instance
 * may not have subscribed again yet when the first copy goes out. Receivers take a notice twice alike.
 */
const NOTICE_RESEND_MS = 2000
/**
 * A notice whose publish failed while the bus stayed up (a Cluster shard whose master is lost: the
 * connection stays ready and only that shard's commands fail) is tried again this often until it goes.
 */
const NOTICE_RETRY_MS = 1000

/**
 * How far back a frame on a latest-value topic may be and still be dropped as superseded: while a
 * Cluster shard fails over, one publish redirected through another node can overtake an older one by
 * far less than this, while an upstream whose clock really went back further gets its frames through.
 */
const SUPERSEDED_WINDOW_MS = 3000

/**
 * One event-loop turn's writes on a single Redis: KEYS are the plain snapshot keys, then the book keys;
 * ARGV the snapshots' lifetime and how many plain keys there are, their values, then for each book key
 * its member count and member/value pairs, then channel/message pairs to publish in order. `pcall` so
 * one failed write does not keep the rest from Redis, as in a pipeline.
 */
const TURN_SCRIPT = `
local ttl, plain = ARGV[1], tonumber(ARGV[2])
local a = 3
for i = 1, plain do
  redis.pcall('SET', KEYS[i], ARGV[a], 'EX', ttl)
  a = a + 1
end
for i = plain + 1, #KEYS do
  local count = tonumber(ARGV[a])
  a = a + 1
  for _ = 1, count do
    redis.pcall('HSET', KEYS[i], ARGV[a], ARGV[a + 1])
    a = a + 2
  end
end
for i = a, #ARGV, 2 do
  redis.pcall('PUBLISH', ARGV[i], ARGV[i + 1])
end
return 0
`

type TurnClient = RedisClient & {
  gatewayBusTurn(keyCount: number, keys: string[], args: Array<string | number>): Promise<number>
}

interface Channel {
  handlers: Set<BusHandler>
  ready: Promise<void> | null
}

/** What one event-loop turn sends to Redis: snapshots by key (and member), then the messages. */
interface RemoteTurn {
  /** plain topics: key -> the turn's last snapshot */
  values: Map<string, string>
  /** wildcard topics: key -> member -> the turn's last snapshot */
  members: Map<string, Map<string, string>>
  /** channel and wire message, in publish order */
  messages: Array<[string, string]>
}

export interface RedisBusOptions {
  url: string
  prefix: string
  received?: Counter<'source'>
  onStatus?: (up: boolean) => void
  /**
   * A Cluster shard's subscriber was lost and its channels are subscribed again on the shard's
   * master now: notices published to that shard in between reached no one here.
   */
  onNoticesMissed?: () => void
  onError?: (error: Error) => void
}

function createClusterClient(url: string, options: Record<string, unknown>): Cluster {
  const target = parseRedisUrl(url)
  const redisOptions: RedisOptions = {
    password: target.password,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  }
  return new (ioredis().Cluster)(target.nodes, {
    redisOptions,
    enableOfflineQueue: false,
    // the subscriber moves its sharded subscriptions to a promoted replica only when it reads the map
    slotsRefreshInterval: CLUSTER_SLOTS_REFRESH_MS,
    clusterRetryStrategy: (attempt) => Math.min(200 * attempt, 2000),
    ...options,
  })
}

export class RedisBus implements Bus {
  private readonly publisher: RedisClient
  private readonly subscriber: RedisClient
  /** sharded pub/sub on a cluster spreads channels over the shards */
  private readonly sharded: boolean
  /** tells this bus's own messages apart, which it already delivered locally */
  readonly id = randomBytes(6).toString('hex')
  private readonly originBytes = Buffer.from(this.id)
  /** what starts each of this instance's wire messages */
  private readonly originPrefix = `${this.id}|`
  private readonly channelPrefix: string
  private readonly snapshotPrefix: string
  private readonly noticeChannel: string
  private readonly noticeChannelBytes: Buffer
  private readonly noticeHandlers: NoticeHandler[] = []
  /** wire notices this instance could not publish, sent when the bus returns or, while it is up, on a timer */
  private readonly pendingNotices: string[] = []
  private noticeRetry: NodeJS.Timeout | null = null
  private readonly channels = new Map<string, Channel>()
  /** snapshots of the locally subscribed topics */
  private readonly mirror = new SnapshotMemory()
  /** book topics whose stored snapshot is being read again after this instance lost their thread */
  private readonly reloading = new Set<string>()
  /** false while this instance may not be the only publisher (its feed lease is unconfirmed or may have passed) */
  mayPublish: () => boolean = () => true
  /** off while this instance reads the feed itself (its bus was down), so no frame arrives twice */
  private receiveRemotely = true
  /** per topic and member, the newest frame time delivered from this instance's own feed reading */
  private localTimes: Map<string, number> | null = null
  private dedupeUntil = 0
  private wasUp = false
  private closed = false
  /** the current turn's remote writes, sent when the turn ends */
  private turn: RemoteTurn | null = null
  /** the last message encoded, and its wire text: a ticker goes to its topic and to the wildcard in a row */
  private readonly lastWire = new LastEncoded((message) => encodeBusMessage(message, this.originPrefix))
  /** a book's snapshot goes with each of its updates, and the same one again until the book changes */
  private readonly lastSnapshot = new LastEncoded((message) => encodeBusMessage(message))

  constructor(private readonly options: RedisBusOptions) {
    this.sharded = parseRedisUrl(options.url).cluster
    this.channelPrefix = `${options.prefix}bus:`
    this.snapshotPrefix = `${options.prefix}snap:`
    this.noticeChannel = `${options.prefix}notice`
    this.noticeChannelBytes = Buffer.from(this.noticeChannel)
    if (this.sharded) {
      // as on a single node, a publish that failed is not sent again: ioredis would retry it once the
      // shard's new master answers, after frames sent to it straight away, and its frame is stale
      this.publisher = createClusterClient(options.url, {
        enableAutoPipelining: true,
        retryDelayOnFailover: 0,
        retryDelayOnClusterDown: 0,
      })
      this.subscriber = createClusterClient(options.url, { shardedSubscribers: true })
      // the connection stays ready while one shard is lost, so no change of status tells of it
      let shardLost = false
      this.subscriber.on('-subscriber', () => (shardLost = true))
      this.subscriber.on('subscribersReady', () => {
        if (!shardLost || this.closed) return
        shardLost = false
        options.onNoticesMissed?.()
      })
    } else {
      // named so an operator (or a test) can tell the bus connections apart in CLIENT LIST
      const name = `${options.prefix}bus-${this.id}`
      // a publish that failed in an outage is not sent again after it: its frame is stale by then
      this.publisher = createRedis(options.url, {
        enableAutoPipelining: true,
        connectionName: `${name}-pub`,
        maxRetriesPerRequest: 0,
      })
      this.publisher.defineCommand('gatewayBusTurn', { lua: TURN_SCRIPT })
      this.subscriber = createRedis(options.url, { autoResubscribe: false, connectionName: `${name}-sub` })
    }
    const onMessage = (channel: Buffer, message: Buffer): void => this.receive(channel, message)
    this.subscriber.on(this.sharded ? 'smessageBuffer' : 'messageBuffer', onMessage)
    for (const client of [this.publisher, this.subscriber]) {
      client.on('ready', () => this.statusChanged(client === this.subscriber))
      client.on('close', () => this.statusChanged(false))
      client.on('error', (error: Error) => options.onError?.(error))
    }
  }

  /** This instance reads the feed for its own sockets: frames from the bus would repeat them. */
  localFeedStarted(): void {
    this.receiveRemotely = false
    this.localTimes = new Map()
  }

  /**
   * Back to the holder's frames. For a moment, bus frames no newer than what this instance already
   * delivered are dropped: the same frames from the holder, or ones Redis held through the outage.
   */
  localFeedStopped(): void {
    this.receiveRemotely = true
    this.dedupeUntil = Date.now() + LOCAL_DEDUPE_MS
  }

  get prefix(): string {
    return this.options.prefix
  }

  get up(): boolean {
    return this.publisher.status === 'ready' && this.subscriber.status === 'ready'
  }

  /** Whether what this instance publishes now reaches the other instances. */
  get publishing(): boolean {
    return this.publisher.status === 'ready' && this.mayPublish()
  }

  get topicCount(): number {
    return this.channels.size
  }

  publish(topic: string, message: BusMessage, snapshot?: BusMessage): void {
    const member = memberOf(topic, message)
    const channel = this.channels.get(topic)
    if (channel) {
      // local sockets get it at once and keep getting it while Redis is away
      if (keepsSnapshot(topic)) this.mirror.store(topic, member, snapshot ?? message)
      this.options.received?.inc({ source: 'local' })
      if (this.localTimes && !this.receiveRemotely)
        this.localTimes.set(`${topic}|${member}`, message.header.ts)
      for (const handler of channel.handlers) handler(message)
    }
    if (!this.publishing) return
    const wire = this.lastWire.of(message)
    // the stored snapshot is the message without its origin, or the whole book
    const stored = snapshot ? this.lastSnapshot.of(snapshot) : wire.slice(this.originPrefix.length)
    if (this.sharded) {
      // a cluster pipeline must stay within one slot: each command goes on its own, auto-pipelined
      this.sendNow(topic, wire, member, stored)
      return
    }
    const turn = this.currentTurn()
    if (keepsSnapshot(topic)) {
      const key = this.snapshotPrefix + topic
      if (member) {
        let members = turn.members.get(key)
        if (!members) turn.members.set(key, (members = new Map()))
        members.set(member, stored)
      } else {
        // a Map keeps the first insertion's place: delete first so the key is written in publish order
        turn.values.delete(key)
        turn.values.set(key, stored)
      }
    }
    turn.messages.push([this.channelPrefix + topic, wire])
  }

  private currentTurn(): RemoteTurn {
    if (!this.turn) {
      this.turn = { values: new Map(), members: new Map(), messages: [] }
      setImmediate(() => this.sendTurn())
    }
    return this.turn
  }

  /**
   * The turn's snapshots (stored before anything is published), then its messages, as one script call
   * (TURN_SCRIPT). A pipeline of one command per frame built a command object, its argument list and
   * its own encoding for each frame: two fifths of what an idle gateway allocated, and about two fifths
   * of the Redis bus's CPU per published frame (loadtests/LIFECYCLE.md).
   */
  private sendTurn(): void {
    const turn = this.turn
    this.turn = null
    if (!turn || this.closed || !this.publishing) return
    const keys: string[] = []
    const args: Array<string | number> = [SNAPSHOT_TTL_SECONDS, turn.values.size]
    for (const [key, value] of turn.values) {
      keys.push(key)
      args.push(value)
    }
    for (const [key, members] of turn.members) {
      keys.push(key)
      args.push(members.size)
      for (const [member, value] of members) args.push(member, value)
    }
    for (const [name, wire] of turn.messages) args.push(name, wire)
    // a turn Redis refused as a whole (out of memory, a script it will not run) goes to the bus's error
    // report and is not sent again: it is stale by the next turn, as a failed pipeline was. ioredis
    // flattens the two lists into the command, so a turn of any size is never spread into a call
    ;(this.publisher as TurnClient)
      .gatewayBusTurn(keys.length, keys, args)
      .catch((error: Error) => this.options.onError?.(error))
  }

  private sendNow(topic: string, wire: string, member: string, snapshot: string): void {
    const ignore = (): void => {}
    if (keepsSnapshot(topic)) {
      const key = this.snapshotPrefix + topic
      // stored before it is published, so a reader that subscribed first sees every later update
      const stored = member
        ? this.publisher.hset(key, member, snapshot)
        : this.publisher.set(key, snapshot, 'EX', SNAPSHOT_TTL_SECONDS)
      stored.catch(ignore)
    }
    this.publisher.spublish(this.channelPrefix + topic, wire).catch(ignore)
  }

  subscribe(topic: string, handler: BusHandler): BusSubscription {
    let channel = this.channels.get(topic)
    if (!channel) {
      const created: Channel = { handlers: new Set(), ready: null }
      created.ready = this.prime(topic, created)
      this.channels.set(topic, (channel = created))
    }
    channel.handlers.add(handler)
    const subscribed = channel
    return {
      ready: subscribed.ready,
      unsubscribe: () => {
        if (!subscribed.handlers.delete(handler) || subscribed.handlers.size > 0) return
        if (this.channels.get(topic) !== subscribed) return
        this.channels.delete(topic)
        this.mirror.delete(topic)
        if (this.subscriber.status !== 'ready') return
        const name = this.channelPrefix + topic
        const done = this.sharded ? this.subscriber.sunsubscribe(name) : this.subscriber.unsubscribe(name)
        done.catch(() => {})
      },
    }
  }

  announce(notice: string): Promise<void> {
    for (const handler of this.noticeHandlers) handler(notice)
    return this.publishNotice(`${this.id}|${notice}`).then(() => undefined)
  }

  /**
   * Publishes a notice, or keeps it for when the bus returns: a notice, unlike a frame, never goes stale.
   * Resolves true once the publish went through.
   */
  private publishNotice(wire: string): Promise<boolean> {
    if (this.closed) return Promise.resolve(false)
    if (this.publisher.status !== 'ready') {
      this.keepNotice(wire)
      return Promise.resolve(false)
    }
    // the frames published before the notice go first, as they did before it
    if (!this.sharded) this.sendTurn()
    const sent = this.sharded
      ? this.publisher.spublish(this.noticeChannel, wire)
      : this.publisher.publish(this.noticeChannel, wire)
    return sent.then(
      () => true,
      () => {
        this.keepNotice(wire)
        return false
      },
    )
  }

  private keepNotice(wire: string): void {
    // a notice tried again while its shard is still down fails again: kept once
    if (!this.pendingNotices.includes(wire)) {
      if (this.pendingNotices.length >= MAX_PENDING_NOTICES) this.pendingNotices.shift()
      this.pendingNotices.push(wire)
    }
    // a bus that is down sends them when it returns; one that is up failed on one shard, and no change
    // of status will come to say that shard is back
    this.noticeRetry ??= setTimeout(() => {
      this.noticeRetry = null
      if (this.up && !this.closed) this.sendPendingNotices()
    }, NOTICE_RETRY_MS).unref()
  }

  /**
   * The bus is back: the notices it could not carry go now, and each once more a little later, after
   * its publish went through. The copy waits on success, not on the try, so an outage of any length
   * ends in one send and one resend per kept notice, never a resend per failed try.
   */
  private sendPendingNotices(): void {
    for (const wire of this.pendingNotices.splice(0)) {
      void this.publishNotice(wire).then((sent) => {
        if (!sent) return
        setTimeout(() => void this.publishNotice(wire), NOTICE_RESEND_MS).unref()
      })
    }
  }

  onNotice(handler: NoticeHandler): void {
    this.noticeHandlers.push(handler)
  }

  snapshot(topic: string): BusMessage[] {
    return this.mirror.get(topic)
  }

  async close(): Promise<void> {
    this.closed = true
    this.turn = null
    if (this.noticeRetry) clearTimeout(this.noticeRetry)
    this.channels.clear()
    this.mirror.clear()
    this.subscriber.disconnect()
    this.publisher.disconnect()
  }

  private async prime(topic: string, channel: Channel): Promise<void> {
    if (this.subscriber.status === 'ready') {
      const name = this.channelPrefix + topic
      await (this.sharded ? this.subscriber.ssubscribe(name) : this.subscriber.subscribe(name)).catch(
        () => {},
      )
    }
    await this.loadSnapshot(topic, channel)
    channel.ready = null
  }

  /** Fills the mirror from Redis without overwriting frames that arrived live meanwhile. */
  private async loadSnapshot(topic: string, channel: Channel): Promise<void> {
    if (!keepsSnapshot(topic) || this.publisher.status !== 'ready') return
    const key = this.snapshotPrefix + topic
    let stored: Record<string, Buffer | null>
    try {
      stored = isWildcardTopic(topic)
        ? await this.publisher.hgetallBuffer(key)
        : { '': await this.publisher.getBuffer(key) }
    } catch {
      return
    }
    if (this.channels.get(topic) !== channel) return
    for (const [member, bytes] of Object.entries(stored)) {
      const message = bytes && decodeBusMessage(bytes)
      if (message) this.mirror.load(topic, member, message)
    }
  }

  /** A followed book lost its thread (a message lost while Redis was away): read the stored book again. */
  private reload(topic: string): void {
    const channel = this.channels.get(topic)
    if (!channel || this.reloading.has(topic)) return
    this.reloading.add(topic)
    void this.loadSnapshot(topic, channel).finally(() => this.reloading.delete(topic))
  }

  private receive(channelName: Buffer, message: Buffer): void {
    const topic = channelName.toString('latin1', this.channelPrefix.length)
    const channel = this.channels.get(topic)
    if (!channel) {
      if (channelName.equals(this.noticeChannelBytes)) this.receiveNotice(message)
      return
    }
    if (!this.receiveRemotely) return
    const separator = message.indexOf(SEPARATOR)
    if (separator < 0) return
    const own = separator === this.originBytes.length && this.originBytes.compare(message, 0, separator) === 0
    if (own) return
    const received = decodeBusMessage(message, separator + 1)
    if (!received) return
    const member = memberOf(topic, received)
    if (this.localTimes && this.olderThanLocal(topic, member, received)) return
    if (this.superseded(topic, member, received)) return
    if (keepsSnapshot(topic) && !this.mirror.follow(topic, member, received)) this.reload(topic)
    this.options.received?.inc({ source: 'redis' })
    for (const handler of channel.handlers) handler(received)
  }

  private olderThanLocal(topic: string, member: string, message: BusMessage): boolean {
    if (Date.now() > this.dedupeUntil) {
      this.localTimes = null
      return false
    }
    const local = this.localTimes!.get(`${topic}|${member}`)
    return local !== undefined && message.header.ts <= local
  }

  /**
   * A frame on a latest-value topic that sockets here already have, or one older than theirs: the
   * stored snapshot arriving again live (it is written before it is published), or a publish that
   * reached Redis late, behind newer ones, while a Cluster shard failed over.
   */
  private superseded(topic: string, member: string, message: BusMessage): boolean {
    if (isBookTopic(topic) || !isLatestValueTopic(topic)) return false
    const held = this.mirror.latest(topic, member)
    if (!held) return false
    const { ts } = message.header
    const heldTs = held.header.ts
    if (ts === heldTs) return message.frame.equals(held.frame)
    return ts < heldTs && heldTs - ts <= SUPERSEDED_WINDOW_MS
  }

  private receiveNotice(message: Buffer): void {
    const separator = message.indexOf(SEPARATOR)
    if (separator < 0) return
    // this instance's own notices were delivered when it announced them
    if (separator === this.originBytes.length && this.originBytes.compare(message, 0, separator) === 0) return
    const notice = message.toString('utf8', separator + 1)
    for (const handler of this.noticeHandlers) handler(notice)
  }

  private statusChanged(subscriberReady: boolean): void {
    if (this.closed) return
    if (subscriberReady) void this.resubscribeAll()
    const up = this.up
    if (up === this.wasUp) return
    this.wasUp = up
    if (up) this.sendPendingNotices()
    this.options.onStatus?.(up)
  }

  /** After a reconnect the subscriber connection starts empty: subscribe every wanted topic again. */
  private async resubscribeAll(): Promise<void> {
    const names = [
      this.noticeChannel,
      ...[...this.channels.keys()].map((topic) => this.channelPrefix + topic),
    ]
    if (this.sharded) {
      await Promise.all(names.map((name) => this.subscriber.ssubscribe(name).catch(() => {})))
    } else {
      for (let i = 0; i < names.length; i += RESUBSCRIBE_BATCH) {
        await this.subscriber.subscribe(...names.slice(i, i + RESUBSCRIBE_BATCH)).catch(() => {})
      }
    }
    for (const [topic, channel] of this.channels) await this.loadSnapshot(topic, channel)
  }
}

/** The encoding of the last message given, kept while the same message comes again. */
class LastEncoded {
  private message: BusMessage | null = null
  private text = ''

  constructor(private readonly encode: (message: BusMessage) => string) {}

  of(message: BusMessage): string {
    if (message !== this.message) {
      this.message = message
      this.text = this.encode(message)
    }
    return this.text
  }
}
