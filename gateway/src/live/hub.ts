import { isLatestValueTopic } from '@tradegate/shared'
import type { Metrics } from '../plugins/app/metrics'
import type { Bus, BusSubscription } from './bus'
import { encodeTextFrame } from './wire-frame'

// Topic -> sockets on this instance. Each bus message is framed once and the same bytes are
// written to every subscriber; a socket whose send buffer grows is conflated, then closed.

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
  metrics: Pick<Metrics, 'wsMessagesSent' | 'wsDropped' | 'wsSubscriptions'>
}

interface TopicEntry {
  topic: string
  sockets: Set<HubSocket>
  /** sockets waiting for the topic's first snapshot; null once it is loaded */
  joining: Set<HubSocket> | null
  subscription: BusSubscription | null
  latestValue: boolean
  user: boolean
}

const USER_TYPE_PREFIX = '{"type":"'

/** The type of a per-user frame, read from the start of the normalised JSON the feed wrote. */
function frameType(payload: Buffer): string {
  if (payload.toString('latin1', 0, USER_TYPE_PREFIX.length) !== USER_TYPE_PREFIX) return ''
  const end = payload.indexOf(0x22, USER_TYPE_PREFIX.length)
  return end < 0 ? '' : payload.toString('latin1', USER_TYPE_PREFIX.length, end)
}

export class TopicHub {
  private readonly topics = new Map<string, TopicEntry>()
  private readonly conflated: { inc(value?: number): void }
  private readonly slowClosed: { inc(value?: number): void }

  constructor(
    private readonly bus: Bus,
    private readonly options: HubOptions,
  ) {
    this.conflated = options.metrics.wsDropped.labels('conflated')
    this.slowClosed = options.metrics.wsDropped.labels('slow_close')
  }

  get topicCount(): number {
    return this.topics.size
  }

  subscriberCount(topic: string): number {
    const entry = this.topics.get(topic)
    return entry ? entry.sockets.size + (entry.joining?.size ?? 0) : 0
  }

  /** Adds a socket to a topic and sends it the topic's snapshot before any newer frame. */
  add(socket: HubSocket, topic: string): void {
    let entry = this.topics.get(topic)
    if (!entry) {
      const created: TopicEntry = {
        topic,
        sockets: new Set(),
        joining: null,
        subscription: null,
        latestValue: isLatestValueTopic(topic),
        user: topic.startsWith('USER:'),
      }
      this.topics.set(topic, (entry = created))
      const subscription = this.bus.subscribe(topic, (payload) => this.deliver(created, payload))
      created.subscription = subscription
      if (subscription.ready) {
        created.joining = new Set()
        void subscription.ready.then(() => this.snapshotLoaded(created))
      }
    }
    this.options.metrics.wsSubscriptions.inc()
    if (entry.joining) {
      entry.joining.add(socket)
      return
    }
    this.sendSnapshot(socket, topic)
    entry.sockets.add(socket)
  }

  remove(socket: HubSocket, topic: string): void {
    const entry = this.topics.get(topic)
    if (!entry) return
    const removed = entry.sockets.delete(socket) || (entry.joining?.delete(socket) ?? false)
    if (!removed) return
    this.options.metrics.wsSubscriptions.dec()
    if (entry.sockets.size > 0 || (entry.joining?.size ?? 0) > 0) return
    this.topics.delete(topic)
    entry.subscription?.unsubscribe()
  }

  private snapshotLoaded(entry: TopicEntry): void {
    const joining = entry.joining
    entry.joining = null
    if (!joining || this.topics.get(entry.topic) !== entry) return
    for (const socket of joining) {
      this.sendSnapshot(socket, entry.topic)
      entry.sockets.add(socket)
    }
  }

  private sendSnapshot(socket: HubSocket, topic: string): void {
    if (!socket.open) return
    for (const payload of this.bus.snapshot(topic)) socket.writeFrame(encodeTextFrame(payload))
  }

  private deliver(entry: TopicEntry, payload: Buffer): void {
    if (entry.sockets.size === 0) return
    const frame = encodeTextFrame(payload)
    const { softBufferBytes, hardBufferBytes } = this.options
    const userType = entry.user ? frameType(payload) : ''
    let sent = 0
    let conflated = 0
    for (const socket of entry.sockets) {
      if (entry.user && !socket.userTypes.has(userType)) continue
      const buffered = socket.bufferedBytes()
      if (buffered > softBufferBytes) {
        if (buffered > hardBufferBytes) {
          this.slowClosed.inc()
          socket.closeSlow()
          continue
        }
        if (entry.latestValue) {
          conflated++
          continue
        }
      }
      socket.writeFrame(frame)
      sent++
    }
    if (sent) this.options.metrics.wsMessagesSent.inc(sent)
    if (conflated) this.conflated.inc(conflated)
  }
}
