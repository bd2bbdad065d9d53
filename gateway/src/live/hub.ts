import { isLatestValueTopic, type StreamRate } from '@tradegate/shared'
import type { Metrics } from '../plugins/app/metrics'
import { Backpressure, type BackpressureOptions, type HubSocket } from './backpressure'
import { BookContinuity } from './book-continuity'
import { isBookTopic, type Bus, type BusSubscription } from './bus'
import type { BusMessage } from './bus-message'
import { RatedDelivery, type RatedTopic } from './rated-delivery'
import { encodeTextFrame } from './wire-frame'

// Topic membership: topic -> the sockets on this instance, each topic subscribed on the bus while it
// has any. The hub reads each bus message's header, never its frame's bytes: each message is framed
// once and the same bytes are written to every subscriber. A book topic's sockets follow its
// numbered stream (book-continuity.ts); subscribers at a rate are served by rated-delivery.ts; every
// write first asks backpressure.ts whether the socket has room.

export interface HubOptions extends BackpressureOptions {
  /** topics this instance serves at most, and so bus channels it subscribes at most */
  maxTopics: number
  metrics: Pick<Metrics, 'wsMessagesSent' | 'wsDropped' | 'wsSubscriptions' | 'wsTopics' | 'wsTopicsSilent'>
}

/** A market topic without a frame for this long counts as silent (gateway_ws_topics_silent). */
export const TOPIC_SILENT_MS = 30_000
/** How often the silent topics are counted: the gauge is read by scrapes, never reset by them. */
const SILENT_COUNT_EVERY_MS = 5000

interface TopicEntry extends RatedTopic {
  /** sockets that get every frame */
  sockets: Set<HubSocket>
  /** sockets waiting for the topic's first snapshot, with their rate; null once it is loaded */
  joining: Map<HubSocket, StreamRate> | null
  subscription: BusSubscription | null
  latestValue: boolean
  user: boolean
  book: BookContinuity | null
  version: number
  /** when the last frame came from the bus (performance.now()), or the topic opened */
  lastFrameAt: number
}

export class TopicHub {
  private readonly topics = new Map<string, TopicEntry>()
  private readonly backpressure: Backpressure
  private readonly rated: RatedDelivery
  private readonly silentCounter: NodeJS.Timeout

  constructor(
    private readonly bus: Bus,
    private readonly options: HubOptions,
  ) {
    this.backpressure = new Backpressure(options)
    this.rated = new RatedDelivery(bus, this.backpressure)
    this.silentCounter = setInterval(
      () => options.metrics.wsTopicsSilent.set(this.silentTopics(TOPIC_SILENT_MS)),
      SILENT_COUNT_EVERY_MS,
    ).unref()
  }

  /**
   * Market topics that sockets here watch and that got no frame for `ms`: what subscribers meet,
   * whatever the feed's leader reports (a lost Redis shard silences its channels alone). A user's own
   * topics are quiet between that user's events, so they are left out.
   */
  silentTopics(ms: number): number {
    const since = performance.now() - ms
    let silent = 0
    for (const entry of this.topics.values()) if (!entry.user && entry.lastFrameAt < since) silent++
    return silent
  }

  /** Slots of `rate`'s period sent so far (0 while nothing is subscribed at it): a period counted, not timed. */
  slotsSent(rate: StreamRate): number {
    return this.rated.slotsSent(rate)
  }

  get topicCount(): number {
    return this.topics.size
  }

  /**
   * Sockets the topic's frames reach now: not those still waiting for the bus to confirm a new
   * topic's subscription and bring its snapshot, to which a frame published meanwhile never comes.
   */
  subscriberCount(topic: string): number {
    const entry = this.topics.get(topic)
    if (!entry) return 0
    let count = entry.sockets.size
    for (const rated of entry.rated?.values() ?? []) count += rated.sockets.size
    return count
  }

  /**
   * Adds a socket to a topic at a rate (0: every frame) and sends it the topic's snapshot before any
   * newer frame; a socket already there moves to the new rate. Returns the hub's own string for
   * the topic, for the socket to keep instead of its copy: one string per topic, not one per
   * subscription. Null when the topic would be new and this instance already serves its maximum of
   * topics.
   */
  add(socket: HubSocket, topic: string, rate: StreamRate = 0): string | null {
    let entry = this.topics.get(topic)
    if (!entry) {
      if (this.topics.size >= this.options.maxTopics) return null
      entry = this.open(topic)
    }
    if (!this.detach(entry, socket)) this.options.metrics.wsSubscriptions.inc()
    if (entry.joining) entry.joining.set(socket, rate)
    else this.join(entry, socket, rate)
    return entry.topic
  }

  /**
   * While a topic's bus subscription is still being confirmed, what settles once the sockets added
   * meanwhile have joined it (its frames reach them from then on); null when they already have.
   */
  joined(topic: string): Promise<void> | null {
    const entry = this.topics.get(topic)
    return entry?.joining ? (entry.subscription?.ready ?? null) : null
  }

  remove(socket: HubSocket, topic: string): void {
    const entry = this.topics.get(topic)
    if (!entry || !this.detach(entry, socket)) return
    this.options.metrics.wsSubscriptions.dec()
    if (entry.sockets.size > 0 || (entry.joining?.size ?? 0) > 0 || entry.rated) return
    this.topics.delete(topic)
    this.options.metrics.wsTopics.set(this.topics.size)
    entry.subscription?.unsubscribe()
  }

  /** Stops the rate timers; the bus is closed by its owner. */
  close(): void {
    clearInterval(this.silentCounter)
    this.rated.close()
  }

  private open(topic: string): TopicEntry {
    const isBook = isBookTopic(topic)
    const entry: TopicEntry = {
      topic,
      isBook,
      sockets: new Set(),
      joining: null,
      subscription: null,
      latestValue: isLatestValueTopic(topic),
      user: topic.startsWith('USER:'),
      book: isBook ? new BookContinuity(topic, this.bus, this.backpressure) : null,
      rated: null,
      version: 0,
      lastFrameAt: performance.now(),
    }
    this.topics.set(topic, entry)
    this.options.metrics.wsTopics.set(this.topics.size)
    const subscription = this.bus.subscribe(topic, (message) => this.deliver(entry, message))
    entry.subscription = subscription
    if (subscription.ready) {
      entry.joining = new Map()
      void subscription.ready.then(() => this.snapshotLoaded(entry))
    }
    return entry
  }

  private snapshotLoaded(entry: TopicEntry): void {
    const joining = entry.joining
    entry.joining = null
    if (!joining || this.topics.get(entry.topic) !== entry) return
    for (const [socket, rate] of joining) this.join(entry, socket, rate)
  }

  private join(entry: TopicEntry, socket: HubSocket, rate: StreamRate): void {
    if (rate === 0) {
      if (entry.book) entry.book.join(socket)
      else this.sendSnapshot(entry, socket)
      entry.sockets.add(socket)
      return
    }
    this.sendSnapshot(entry, socket)
    this.rated.join(entry, socket, rate)
  }

  /** Takes a socket out of every set of the topic; false if it was in none. */
  private detach(entry: TopicEntry, socket: HubSocket): boolean {
    entry.book?.forget(socket)
    if (entry.sockets.delete(socket) || entry.joining?.delete(socket)) return true
    return this.rated.leave(entry, socket)
  }

  /** The topic's snapshot as it stands: one frame, or one per member of a wildcard. */
  private sendSnapshot(entry: TopicEntry, socket: HubSocket): void {
    if (!socket.open) return
    for (const { frame } of this.bus.snapshot(entry.topic)) socket.writeFrame(encodeTextFrame(frame))
  }

  private deliver(entry: TopicEntry, message: BusMessage): void {
    entry.version++
    entry.lastFrameAt = performance.now()
    this.rated.markChanged(entry, message)
    if (entry.book) return entry.book.deliver(message, entry.sockets)
    if (entry.sockets.size === 0) return
    const frame = encodeTextFrame(message.frame)
    const userType = message.header.type
    let sent = 0
    let conflated = 0
    for (const socket of entry.sockets) {
      if (entry.user && !socket.userTypes.has(userType)) continue
      const room = this.backpressure.roomIn(socket)
      if (room === 'closed') continue
      // a topic that carries its latest value skips a frame for a full socket; others keep every frame
      if (room === 'full' && entry.latestValue) {
        conflated++
        continue
      }
      socket.writeFrame(frame)
      sent++
    }
    this.backpressure.count(sent, conflated)
  }
}
