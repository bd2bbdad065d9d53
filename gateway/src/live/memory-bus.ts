import type { Counter } from 'prom-client'
import {
  keepsSnapshot,
  memberOf,
  type Bus,
  type BusHandler,
  type BusSubscription,
  type NoticeHandler,
} from './bus'
import type { BusMessage } from './bus-message'
import { SnapshotMemory } from './snapshots'

// The bus of a single instance (no REDIS_URL): delivery is a synchronous call.

export class MemoryBus implements Bus {
  readonly up = true
  private readonly handlers = new Map<string, Set<BusHandler>>()
  private readonly snapshots = new SnapshotMemory()
  private readonly noticeHandlers: NoticeHandler[] = []

  constructor(private readonly received?: Counter<'source'>) {}

  get topicCount(): number {
    return this.handlers.size
  }

  publish(topic: string, message: BusMessage, snapshot?: BusMessage): void {
    if (keepsSnapshot(topic)) this.snapshots.store(topic, memberOf(topic, message), snapshot ?? message)
    const handlers = this.handlers.get(topic)
    if (!handlers) return
    this.received?.inc({ source: 'local' })
    for (const handler of handlers) handler(message)
  }

  subscribe(topic: string, handler: BusHandler): BusSubscription {
    let handlers = this.handlers.get(topic)
    if (!handlers) this.handlers.set(topic, (handlers = new Set()))
    handlers.add(handler)
    return {
      ready: null,
      unsubscribe: () => {
        const current = this.handlers.get(topic)
        if (!current?.delete(handler) || current.size > 0) return
        this.handlers.delete(topic)
      },
    }
  }

  announce(notice: string): Promise<void> {
    for (const handler of this.noticeHandlers) handler(notice)
    return Promise.resolve()
  }

  onNotice(handler: NoticeHandler): void {
    this.noticeHandlers.push(handler)
  }

  snapshot(topic: string): BusMessage[] {
    return this.snapshots.get(topic)
  }

  async close(): Promise<void> {
    this.handlers.clear()
  }
}
