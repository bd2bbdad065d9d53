import { isLatestValueTopic, type StreamRate } from '@tradegate/shared'
import type { Metrics } from '../plugins/app/metrics'
import { isBookTopic, type Bus, type BusSubscription } from './bus'
import type { BusMessage, FrameHeader } from './bus-message'
import { encodeTextFrame } from './wire-frame'

// Topic -> sockets on this instance, which reads each bus message's header, never its frame's bytes.
// Each bus message is framed once and the same bytes are
// written to every subscriber; a socket whose send buffer grows is conflated, then closed.
// Subscribers at a rate are served by one timer per rate, which sends each changed topic's latest
// frame, framed once, to all of them. The rate's topics are dealt round the period's slots so that
// each tick sends a slice of them: sending every topic at once would stall the raw subscribers
// behind one long burst each period.

export interface HubSocket {
  readonly open: boolean
  /** bytes accepted for this client and not yet handed to the kernel */
  bufferedBytes(): number
  /** writes one complete wire frame */
  writeFrame(frame: Buffer): void
  /** which per-user event types (POSITION, ...) the socket asked for */
  readonly userTypes: ReadonlySet<string>
  /** closes with 1013 because the client reads slower than its topics tick */
  closeSlow(): void
}

export interface HubOptions {
  softBufferBytes: number
  hardBufferBytes: number
  /** topics this instance serves at most, and so bus channels it subscribes at most */
  maxTopics: number
  metrics: Pick<Metrics, 'wsMessagesSent' | 'wsDropped' | 'wsSubscriptions' | 'wsTopics'>
}

/** The sockets of one topic at one rate, and what changed since the rate's last tick. */
interface RatedSockets {
  sockets: Set<HubSocket>
  /** conflation key -> the latest message since the last tick */
  pending: Map<string | number, BusMessage>
  /** sockets that joined since the last tick -> the topic's version their snapshot showed */
  fresh: Map<HubSocket, number>
  /** which of the rate's slots sends this topic */
  slot: number
}

/** Where the sockets of a book topic stand in its numbered stream. */
interface BookState {
  /** seq of the last frame on the topic; -1 before the first */
  seq: number
  /** sockets that missed an update (or joined before there was a book): they get the book next */
  resync: Set<HubSocket>
  /** sockets sent the book outside the stream -> its seq; updates up to it are already in it */
  floors: Map<HubSocket, number>
}

interface TopicEntry {
  topic: string
  /** sockets that get every frame */
  sockets: Set<HubSocket>
  /** sockets waiting for the topic's first snapshot, with their rate; null once it is loaded */
  joining: Map<HubSocket, StreamRate> | null
  subscription: BusSubscription | null
  latestValue: boolean
  user: boolean
  book: BookState | null
  /** subscribers at a rate, by rate; null while there are none */
  rated: Map<StreamRate, RatedSockets> | null
  /** frames delivered so far */
  version: number
}

interface RateGroup {
  timer: NodeJS.Timeout
  /** per slot, the topics with a frame for this rate's subscribers since the slot's last tick */
  dirty: Array<Set<TopicEntry>>
  /** slots sent so far: the next one is `sent % dirty.length` */
  sent: number
  /** when the next slot is due (performance.now()): timers run late, and a period must not stretch */
  nextSlotAt: number
  slotMs: number
  /** the slot the next topic to join this rate is dealt */
  nextSlot: number
  sockets: number
}

/** A rate's period is cut into slots this long; each topic at the rate is sent in one of them. */
export const RATE_SLOT_MS = 25

/**
 * Which earlier message a message replaces when conflated: the last of its own topic (so each symbol's
 * inside DETAIL:*), or in KLINE the last of its candle.
 */
function conflationKey(header: FrameHeader): string | number {
  return header.candle ?? header.topic
}

export class TopicHub {
  private readonly topics = new Map<string, TopicEntry>()
  private readonly rates = new Map<StreamRate, RateGroup>()
  private readonly conflated: { inc(value?: number): void }
  private readonly slowClosed: { inc(value?: number): void }

  constructor(
    private readonly bus: Bus,
    private readonly options: HubOptions,
  ) {
    this.conflated = options.metrics.wsDropped.labels('conflated')
    this.slowClosed = options.metrics.wsDropped.labels('slow_close')
  }

  /** Slots of `rate`'s period sent so far (0 while nothing is subscribed at it): a period counted, not timed. */
  slotsSent(rate: StreamRate): number {
    return this.rates.get(rate)?.sent ?? 0
  }

  get topicCount(): number {
    return this.topics.size
  }

  subscriberCount(topic: string): number {
    const entry = this.topics.get(topic)
    if (!entry) return 0
    let count = entry.sockets.size + (entry.joining?.size ?? 0)
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
    for (const group of this.rates.values()) clearInterval(group.timer)
    this.rates.clear()
  }

  private open(topic: string): TopicEntry {
    const entry: TopicEntry = {
      topic,
      sockets: new Set(),
      joining: null,
      subscription: null,
      latestValue: isLatestValueTopic(topic),
      user: topic.startsWith('USER:'),
      book: isBookTopic(topic) ? { seq: -1, resync: new Set(), floors: new Map() } : null,
      rated: null,
      version: 0,
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
    this.sendSnapshot(entry, socket, rate)
    if (rate === 0) {
      entry.sockets.add(socket)
      return
    }
    const group = this.groupOf(rate)
    let rated = entry.rated?.get(rate)
    if (!rated) {
      rated = {
        sockets: new Set(),
        pending: new Map(),
        fresh: new Map(),
        slot: group.nextSlot++ % group.dirty.length,
      }
      ;(entry.rated ??= new Map()).set(rate, rated)
    }
    rated.sockets.add(socket)
    rated.fresh.set(socket, entry.version)
    group.sockets++
  }

  /** Takes a socket out of every set of the topic; false if it was in none. */
  private detach(entry: TopicEntry, socket: HubSocket): boolean {
    if (entry.book) {
      entry.book.resync.delete(socket)
      entry.book.floors.delete(socket)
    }
    if (entry.sockets.delete(socket) || entry.joining?.delete(socket)) return true
    if (!entry.rated) return false
    for (const [rate, rated] of entry.rated) {
      if (!rated.sockets.delete(socket)) continue
      rated.fresh.delete(socket)
      if (rated.sockets.size === 0) entry.rated.delete(rate)
      if (entry.rated.size === 0) entry.rated = null
      this.leaveGroup(rate)
      return true
    }
    return false
  }

  private groupOf(rate: StreamRate): RateGroup {
    let group = this.rates.get(rate)
    if (!group) {
      const slots = Math.max(1, Math.floor(rate / RATE_SLOT_MS))
      const slotMs = rate / slots
      const timer = setInterval(() => this.tick(rate), slotMs)
      timer.unref()
      const dirty = Array.from({ length: slots }, () => new Set<TopicEntry>())
      const nextSlotAt = performance.now() + slotMs
      this.rates.set(rate, (group = { timer, dirty, sent: 0, nextSlotAt, slotMs, nextSlot: 0, sockets: 0 }))
    }
    return group
  }

  private leaveGroup(rate: StreamRate): void {
    const group = this.rates.get(rate)
    if (!group || --group.sockets > 0) return
    clearInterval(group.timer)
    this.rates.delete(rate)
  }

  private sendSnapshot(entry: TopicEntry, socket: HubSocket, rate: StreamRate): void {
    if (!socket.open) return
    const messages = this.bus.snapshot(entry.topic)
    if (entry.book && rate === 0) {
      const seq = messages[0]?.header.seq
      if (seq === undefined) {
        // no book yet (or it is being reloaded): the first one available comes before any update
        entry.book.resync.add(socket)
        return
      }
      entry.book.floors.set(socket, seq)
    }
    for (const { frame } of messages) socket.writeFrame(encodeTextFrame(frame))
  }

  private deliver(entry: TopicEntry, message: BusMessage): void {
    entry.version++
    if (entry.rated) this.markChanged(entry, message)
    if (entry.book) return this.deliverBook(entry, entry.book, message)
    if (entry.sockets.size === 0) return
    const frame = encodeTextFrame(message.frame)
    const userType = message.header.type
    let sent = 0
    let conflated = 0
    for (const socket of entry.sockets) {
      if (entry.user && !socket.userTypes.has(userType)) continue
      const room = this.roomIn(socket)
      if (room === 'closed') continue
      // a topic that carries its latest value skips a frame for a full socket; others keep every frame
      if (room === 'full' && entry.latestValue) {
        conflated++
        continue
      }
      socket.writeFrame(frame)
      sent++
    }
    if (sent) this.options.metrics.wsMessagesSent.inc(sent)
    if (conflated) this.conflated.inc(conflated)
  }

  /**
   * A book's frame: a snapshot goes to everyone; an update only to sockets that hold the update
   * before it. A socket that skipped one, or whose book is older, is sent the whole book instead.
   */
  private deliverBook(entry: TopicEntry, book: BookState, message: BusMessage): void {
    const { seq, book: snapshot = false } = message.header
    if (seq === undefined) return
    if (!snapshot && book.seq >= 0) {
      if (seq <= book.seq) return
      // this instance missed an update: every socket needs the book again
      if (seq !== book.seq + 1) for (const socket of entry.sockets) book.resync.add(socket)
    }
    book.seq = seq
    if (entry.sockets.size === 0) return
    const frame = encodeTextFrame(message.frame)
    let current: { frame: Buffer; seq: number } | null | undefined
    let sent = 0
    let conflated = 0
    for (const socket of entry.sockets) {
      const room = this.roomIn(socket)
      if (room === 'closed') continue
      if (room === 'full') {
        conflated++
        book.floors.delete(socket)
        book.resync.add(socket)
        continue
      }
      let needsBook = book.resync.has(socket)
      const floor = book.floors.get(socket)
      if (floor !== undefined && !snapshot) {
        if (seq <= floor) continue
        if (seq !== floor + 1) needsBook = true
      }
      book.floors.delete(socket)
      if (snapshot || !needsBook) {
        book.resync.delete(socket)
        socket.writeFrame(frame)
        sent++
        continue
      }
      // the bus's book, framed once for every socket that needs it, if it already holds this update
      current ??= this.currentBook(entry.topic, seq)
      if (!current) continue
      book.resync.delete(socket)
      if (current.seq > seq) book.floors.set(socket, current.seq)
      socket.writeFrame(current.frame)
      sent++
    }
    if (sent) this.options.metrics.wsMessagesSent.inc(sent)
    if (conflated) this.conflated.inc(conflated)
  }

  /**
   * The one check of a socket's write buffer before a frame: room to write; full (past the soft
   * limit: the caller skips or conflates); or past the hard limit, where the socket is closed here.
   */
  private roomIn(socket: HubSocket): 'open' | 'full' | 'closed' {
    const buffered = socket.bufferedBytes()
    if (buffered <= this.options.softBufferBytes) return 'open'
    if (buffered <= this.options.hardBufferBytes) return 'full'
    this.slowClosed.inc()
    socket.closeSlow()
    return 'closed'
  }

  private currentBook(topic: string, seq: number): { frame: Buffer; seq: number } | null {
    const [message] = this.bus.snapshot(topic)
    const held = message?.header.seq
    if (!message || held === undefined || held < seq) return null
    return { frame: encodeTextFrame(message.frame), seq: held }
  }

  private markChanged(entry: TopicEntry, message: BusMessage): void {
    const key = conflationKey(message.header)
    for (const [rate, rated] of entry.rated!) {
      rated.pending.set(key, message)
      this.rates.get(rate)?.dirty[rated.slot]?.add(entry)
    }
  }

  /**
   * Sends every slot that is due. A timer that ran late catches up, so that each topic is still sent
   * once per period of wall-clock time, not once per so many late ticks.
   */
  private tick(rate: StreamRate): void {
    const group = this.rates.get(rate)
    if (!group) return
    const now = performance.now()
    for (let slot = 0; slot < group.dirty.length && group.nextSlotAt <= now; slot++) {
      this.sendSlot(rate, group.dirty[group.sent++ % group.dirty.length]!)
      group.nextSlotAt += group.slotMs
    }
    // more than a whole period behind (the event loop was blocked): every slot was just sent
    if (group.nextSlotAt <= now) group.nextSlotAt = now + group.slotMs
  }

  /** One slot of a rate's period: each of its changed topics' latest frames, framed once, to their subscribers at that rate. */
  private sendSlot(rate: StreamRate, dirty: Set<TopicEntry>): void {
    if (dirty.size === 0) return
    let sent = 0
    let conflated = 0
    for (const entry of dirty) {
      const rated = entry.rated?.get(rate)
      if (!rated) continue
      // a book at a rate is sent whole: its subscribers never have to follow a numbered stream
      const messages = entry.book ? this.bus.snapshot(entry.topic) : [...rated.pending.values()]
      rated.pending.clear()
      for (const message of messages) {
        const frame = encodeTextFrame(message.frame)
        for (const socket of rated.sockets) {
          // its snapshot, sent on subscribe, already showed this
          if (rated.fresh.get(socket) === entry.version) continue
          const room = this.roomIn(socket)
          if (room === 'full') conflated++
          if (room !== 'open') continue
          socket.writeFrame(frame)
          sent++
        }
      }
      rated.fresh.clear()
    }
    dirty.clear()
    if (sent) this.options.metrics.wsMessagesSent.inc(sent)
    if (conflated) this.conflated.inc(conflated)
  }
}
