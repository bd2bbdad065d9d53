import { depthTopic, type DepthData } from '@tradegate/shared'
import { busMessage, type BusMessage } from './bus-message'
import { DepthBook, canonicalLevels } from './depth-book'

// The feed's side of DEPTH: one book per symbol built from the upstream's snapshot and numbered
// updates. Each accepted frame is published with the whole book as the topic's new snapshot; an
// update that does not follow (a gap, or no snapshot yet) drops the book until a fresh snapshot.

export interface DepthFrame {
  type: 'DEPTH'
  symbol: string
  data: DepthData
  ts: number
}

export type DepthOutcome =
  /** `message` goes to subscribers; `snapshot` replaces the topic's snapshot */
  | { kind: 'publish'; message: BusMessage; snapshot: BusMessage }
  /** the book is gone: ask the upstream for a fresh snapshot */
  | { kind: 'resync' }
  /** an update the book already holds: nothing to do */
  | { kind: 'stale' }

export class DepthBooks {
  private readonly books = new Map<string, DepthBook>()

  accept(frame: DepthFrame): DepthOutcome {
    const { symbol, data, ts } = frame
    const bids = canonicalLevels(data.bids)
    const asks = canonicalLevels(data.asks)
    if (!bids || !asks) {
      this.books.delete(symbol)
      return { kind: 'resync' }
    }
    const levels: DepthData = { snapshot: data.snapshot, seq: data.seq, bids, asks }
    if (data.snapshot) {
      const book = DepthBook.fromSnapshot(symbol, levels, ts)
      this.books.set(symbol, book)
      // the upstream's snapshot may list more than the top levels: subscribers get the book's top
      const snapshot = book.snapshotMessage()
      return { kind: 'publish', message: snapshot, snapshot }
    }
    const book = this.books.get(symbol)
    // without a book, any update is past a gap
    const outcome = book ? book.apply(levels, ts) : 'gap'
    if (outcome === 'old') return { kind: 'stale' }
    if (!book || outcome === 'gap') {
      this.books.delete(symbol)
      return { kind: 'resync' }
    }
    return {
      kind: 'publish',
      message: busMessage(depthTopic(symbol), { type: 'DEPTH', symbol, data: levels, ts }),
      snapshot: book.snapshotMessage(),
    }
  }

  /** Forgets every book: a new feed connection starts from the upstream's fresh snapshots. */
  clear(): void {
    this.books.clear()
  }
}
