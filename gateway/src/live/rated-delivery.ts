import type { StreamRate } from '@tradegate/shared'
import type { Bus } from './bus'
import type { BusMessage, FrameHeader } from './bus-message'
import type { Backpressure, HubSocket } from './backpressure'
import { encodeTextFrame } from './wire-frame'

// Rated delivery: subscribers at a rate are served by one timer per rate, which sends each changed
// topic's latest frame, framed once, to all of them. The rate's topics are dealt round the period's
// slots so that each tick sends a slice of them: sending every topic at once would stall the raw
// subscribers behind one long burst each period.

/** A rate's period is cut into slots this long; each topic at the rate is sent in one of them. */
export const RATE_SLOT_MS = 25

/** The sockets of one topic at one rate, and what changed since the rate's last tick. */
export interface RatedSockets {
  sockets: Set<HubSocket>
  /** conflation key -> the latest message since the last tick */
  pending: Map<string | number, BusMessage>
  /** sockets that joined since the last tick -> the topic's version their snapshot showed */
  fresh: Map<HubSocket, number>
  /** which of the rate's slots sends this topic */
  slot: number
}

/** What rated delivery needs of a topic the hub holds. */
export interface RatedTopic {
  readonly topic: string
  /** a book topic at a rate is sent whole: its subscribers never follow a numbered stream */
  readonly isBook: boolean
  /** frames delivered so far */
  readonly version: number
  /** subscribers at a rate, by rate; null while there are none */
  rated: Map<StreamRate, RatedSockets> | null
}

interface RateGroup {
  timer: NodeJS.Timeout
  /** per slot, the topics with a frame for this rate's subscribers since the slot's last tick */
  dirty: Array<Set<RatedTopic>>
  /** slots sent so far: the next one is `sent % dirty.length` */
  sent: number
  /** when the next slot is due (performance.now()): timers run late, and a period must not stretch */
  nextSlotAt: number
  slotMs: number
  /** the slot the next topic to join this rate is dealt */
  nextSlot: number
  sockets: number
}

/**
 * Which earlier message a message replaces when conflated: the last of its own topic (so each symbol's
 * inside DETAIL:*), or in KLINE the last of its candle.
 */
function conflationKey(header: FrameHeader): string | number {
  return header.candle ?? header.topic
}

export class RatedDelivery {
  private readonly rates = new Map<StreamRate, RateGroup>()

  constructor(
    private readonly bus: Bus,
    private readonly backpressure: Backpressure,
  ) {}

  /** Slots of `rate`'s period sent so far (0 while nothing is subscribed at it): a period counted, not timed. */
  slotsSent(rate: StreamRate): number {
    return this.rates.get(rate)?.sent ?? 0
  }

  /** Adds a socket, already sent the topic's snapshot, to the topic's subscribers at `rate`. */
  join(topic: RatedTopic, socket: HubSocket, rate: StreamRate): void {
    const group = this.groupOf(rate)
    let rated = topic.rated?.get(rate)
    if (!rated) {
      rated = {
        sockets: new Set(),
        pending: new Map(),
        fresh: new Map(),
        slot: group.nextSlot++ % group.dirty.length,
      }
      ;(topic.rated ??= new Map()).set(rate, rated)
    }
    rated.sockets.add(socket)
    rated.fresh.set(socket, topic.version)
    group.sockets++
  }

  /** Takes a socket out of the topic's rated subscribers; false if it was not one. */
  leave(topic: RatedTopic, socket: HubSocket): boolean {
    if (!topic.rated) return false
    for (const [rate, rated] of topic.rated) {
      if (!rated.sockets.delete(socket)) continue
      rated.fresh.delete(socket)
      if (rated.sockets.size === 0) topic.rated.delete(rate)
      if (topic.rated.size === 0) topic.rated = null
      this.leaveGroup(rate)
      return true
    }
    return false
  }

  /** A message on a topic with rated subscribers: it is sent in the topic's next slot of each rate. */
  markChanged(topic: RatedTopic, message: BusMessage): void {
    if (!topic.rated) return
    const key = conflationKey(message.header)
    for (const [rate, rated] of topic.rated) {
      rated.pending.set(key, message)
      this.rates.get(rate)?.dirty[rated.slot]?.add(topic)
    }
  }

  /** Stops the rate timers. */
  close(): void {
    for (const group of this.rates.values()) clearInterval(group.timer)
    this.rates.clear()
  }

  private groupOf(rate: StreamRate): RateGroup {
    let group = this.rates.get(rate)
    if (!group) {
      const slots = Math.max(1, Math.floor(rate / RATE_SLOT_MS))
      const slotMs = rate / slots
      const timer = setInterval(() => this.tick(rate), slotMs)
      timer.unref()
      const dirty = Array.from({ length: slots }, () => new Set<RatedTopic>())
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
  private sendSlot(rate: StreamRate, dirty: Set<RatedTopic>): void {
    if (dirty.size === 0) return
    let sent = 0
    let conflated = 0
    for (const topic of dirty) {
      const rated = topic.rated?.get(rate)
      if (!rated) continue
      const messages = topic.isBook ? this.bus.snapshot(topic.topic) : [...rated.pending.values()]
      rated.pending.clear()
      for (const message of messages) {
        const frame = encodeTextFrame(message.frame)
        for (const socket of rated.sockets) {
          // its snapshot, sent on subscribe, already showed this
          if (rated.fresh.get(socket) === topic.version) continue
          const room = this.backpressure.roomIn(socket)
          if (room === 'full') conflated++
          if (room !== 'open') continue
          socket.writeFrame(frame)
          sent++
        }
      }
      rated.fresh.clear()
    }
    dirty.clear()
    this.backpressure.count(sent, conflated)
  }
}
