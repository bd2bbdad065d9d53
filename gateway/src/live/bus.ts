// The bus carries ready-to-send frames per topic between instances and keeps each topic's snapshot.

/** Receives each frame once per instance, as bytes, so fan-out never re-encodes it. */
export type BusHandler = (frame: Buffer) => void

/** Receives each notice once per instance: short control messages between instances, not feed data. */
export type NoticeHandler = (notice: string) => void

export interface BusSubscription {
  /** null when the topic's snapshot is already complete; otherwise resolves once it is */
  ready: Promise<void> | null
  unsubscribe(): void
}

export interface Bus {
  /**
   * Sends `frame` to every subscriber of `topic` on every instance and records it as the topic's
   * snapshot. For a wildcard topic (`DETAIL:*`) `member` names the concrete topic the frame
   * replaces inside the wildcard's snapshot. A book topic (DEPTH) publishes its update as `frame`
   * and the whole book as `snapshot`.
   */
  publish(topic: string, frame: string, member?: string, snapshot?: string): void
  /** Reference counted: the first handler of a topic subscribes upstream, the last one leaving unsubscribes. */
  subscribe(topic: string, handler: BusHandler): BusSubscription
  /**
   * Sends a notice to every instance, this one included (synchronously), whatever the feed lease
   * says. A notice the shared transport could not take is kept and sent when it returns; one sent
   * while another instance was cut off is not stored for it. Resolves once the transport has taken
   * it (at once without one, or while it is unreachable).
   */
  announce(notice: string): Promise<void>
  /** Adds a handler for every notice, this instance's and the others'. */
  onNotice(handler: NoticeHandler): void
  /** Latest frame(s) of a topic this instance is subscribed to: one frame, or one per member of a wildcard. */
  snapshot(topic: string): Buffer[]
  /** false while the shared transport is unreachable; local delivery keeps working */
  readonly up: boolean
  /** Topics with at least one local handler. */
  readonly topicCount: number
  close(): Promise<void>
}

/** The gateway's own topic: a reading instance asks every instance to send its sockets a resync frame. */
export const RESYNC_TOPIC = 'GATEWAY:resync'

/** User events and resyncs are events, not state: replaying the last one to a new subscriber could apply it twice. */
export function keepsSnapshot(topic: string): boolean {
  return !topic.startsWith('USER:') && topic !== RESYNC_TOPIC
}

export function isWildcardTopic(topic: string): boolean {
  return topic.endsWith(':*')
}

/** Publishes one normalised frame on each of its topics; wildcard copies are keyed by the first topic. */
export function publishOnTopics(bus: Bus, topics: readonly string[], frame: string, snapshot?: string): void {
  const [concrete] = topics
  for (const topic of topics)
    bus.publish(topic, frame, isWildcardTopic(topic) ? concrete : undefined, snapshot)
}

/** Topics whose snapshot is a book kept from numbered updates rather than the latest frame. */
export function isBookTopic(topic: string): boolean {
  return topic.startsWith('DEPTH:')
}

/**
 * A frame's bytes, made once however many topics it is published on in a row (a ticker goes to its
 * symbol's topic and to the wildcard): the last text and its bytes are kept.
 */
export class LastBytes {
  private text = ''
  private bytes = Buffer.alloc(0)

  of(text: string): Buffer {
    if (text !== this.text) {
      this.text = text
      this.bytes = Buffer.from(text)
    }
    return this.bytes
  }
}
