import type { BusMessage } from './bus-message'

// The bus carries ready-to-send frames per topic between instances, each behind its header
// (bus-message.ts), and keeps each topic's snapshot.

/** Receives each message once per instance; its frame is bytes, so fan-out never re-encodes it. */
export type BusHandler = (message: BusMessage) => void

/** Receives each notice once per instance: short control messages between instances, not feed data. */
export type NoticeHandler = (notice: string) => void

export interface BusSubscription {
  /** null when the topic's snapshot is already complete; otherwise resolves once it is */
  ready: Promise<void> | null
  unsubscribe(): void
}

export interface Bus {
  /**
   * Sends `message` to every subscriber of `topic` on every instance and records it as the topic's
   * snapshot. On a wildcard topic (`DETAIL:*`) it replaces the snapshot of its header's topic
   * inside the wildcard's. A book topic (DEPTH) publishes its update as `message` and the whole
   * book as `snapshot`.
   */
  publish(topic: string, message: BusMessage, snapshot?: BusMessage): void
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
  /** Latest message(s) of a topic this instance is subscribed to: one, or one per member of a wildcard. */
  snapshot(topic: string): BusMessage[]
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

/** Publishes one message on each of its topics (a ticker goes to its symbol's topic and to the wildcard). */
export function publishOnTopics(
  bus: Bus,
  topics: readonly string[],
  message: BusMessage,
  snapshot?: BusMessage,
): void {
  for (const topic of topics) bus.publish(topic, message, snapshot)
}

/** The member of `topic`'s snapshot a message replaces: its own topic inside a wildcard, else the one. */
export function memberOf(topic: string, message: BusMessage): string {
  return isWildcardTopic(topic) ? message.header.topic : ''
}

/** Topics whose snapshot is a book kept from numbered updates rather than the latest frame. */
export function isBookTopic(topic: string): boolean {
  return topic.startsWith('DEPTH:')
}
