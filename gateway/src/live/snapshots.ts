import { seqStanding, type DepthData } from '@tradegate/shared'
import { isBookTopic } from './bus'
import type { BusMessage } from './bus-message'
import { DepthBook } from './depth-book'

// What a bus keeps of each topic for new subscribers: the latest message (one per member of a wildcard
// topic), or for a book topic the book. The publisher hands over the book's snapshot with every
// update; an instance that only receives the updates (a Redis follower) applies them to its own copy.

/** Updates kept while a followed book waits for its base snapshot. */
const MAX_PENDING_UPDATES = 256

interface FollowedBook {
  book: DepthBook | null
  /** updates that arrived while there was no book, applied once a base snapshot is loaded */
  pending: Array<{ data: DepthData; ts: number }>
}

interface DepthMessage {
  symbol: string
  data: DepthData
  ts: number
}

/** The levels of a DEPTH message, which a follower applies to its book; null if it holds none. */
function parseDepth({ header, frame }: BusMessage): DepthMessage | null {
  if (header.type !== 'DEPTH' || header.seq === undefined) return null
  try {
    const message = JSON.parse(frame.toString()) as Partial<DepthMessage>
    const { symbol, data, ts } = message
    if (typeof symbol !== 'string' || typeof ts !== 'number' || typeof data !== 'object' || data === null)
      return null
    if (typeof data.seq !== 'number' || !Array.isArray(data.bids) || !Array.isArray(data.asks)) return null
    return { symbol, data, ts }
  } catch {
    return null
  }
}

export class SnapshotMemory {
  /** topic -> member ('' for plain topics) -> latest message */
  private readonly frames = new Map<string, Map<string, BusMessage>>()
  /** book topics followed from updates, on an instance that does not publish them */
  private readonly books = new Map<string, FollowedBook>()

  /** A frame published here: `snapshot` is the topic's new snapshot (the frame itself, or the whole book). */
  store(topic: string, member: string, snapshot: BusMessage): void {
    this.books.delete(topic)
    let members = this.frames.get(topic)
    if (!members) this.frames.set(topic, (members = new Map()))
    members.set(member, snapshot)
  }

  /**
   * A frame published by another instance. A book topic applies it to its book; false when the
   * book cannot follow (a gap, or no base yet), and the caller should load the stored snapshot.
   */
  follow(topic: string, member: string, message: BusMessage): boolean {
    if (!isBookTopic(topic)) {
      this.store(topic, member, message)
      return true
    }
    const followed = this.followed(topic)
    const { book } = followed
    const { seq, book: whole } = message.header
    // an update this book already holds is not even parsed
    if (book && !whole && seq !== undefined && seqStanding(book.seq, seq) === 'old') return true
    const depth = parseDepth(message)
    if (!depth) {
      this.lose(followed)
      return false
    }
    const { symbol, data, ts } = depth
    if (data.snapshot) {
      this.reset(followed, DepthBook.fromSnapshot(symbol, data, ts))
      return true
    }
    if (book && book.apply(data, ts) !== 'gap') return true
    this.lose(followed)
    followed.pending.push({ data, ts })
    if (followed.pending.length > MAX_PENDING_UPDATES) followed.pending.shift()
    return false
  }

  /** A snapshot read from the shared store; it never replaces a newer one this instance already holds. */
  load(topic: string, member: string, snapshot: BusMessage): void {
    if (!isBookTopic(topic)) {
      if (!this.frames.get(topic)?.has(member)) this.store(topic, member, snapshot)
      return
    }
    const followed = this.followed(topic)
    if (followed.book) return
    const message = parseDepth(snapshot)
    if (!message) return
    const book = DepthBook.fromSnapshot(message.symbol, message.data, message.ts)
    // updates the stored book already holds are 'old' and change nothing
    for (const update of followed.pending) if (book.apply(update.data, update.ts) === 'gap') return
    this.reset(followed, book)
  }

  /** The latest message held of a topic that is not a book (of one member of a wildcard topic). */
  latest(topic: string, member: string): BusMessage | undefined {
    return this.frames.get(topic)?.get(member)
  }

  /** The messages a new subscriber starts from; none for a book that is being reloaded. */
  get(topic: string): BusMessage[] {
    const followed = this.books.get(topic)
    if (followed) return followed.book ? [followed.book.snapshotMessage()] : []
    const members = this.frames.get(topic)
    return members ? [...members.values()] : []
  }

  delete(topic: string): void {
    this.frames.delete(topic)
    this.books.delete(topic)
  }

  clear(): void {
    this.frames.clear()
    this.books.clear()
  }

  /** The followed copy of a book topic, started from the snapshot stored here if there is one. */
  private followed(topic: string): FollowedBook {
    let followed = this.books.get(topic)
    if (followed) return followed
    const stored = this.frames.get(topic)?.get('')
    const message = stored ? parseDepth(stored) : null
    followed = {
      book: message ? DepthBook.fromSnapshot(message.symbol, message.data, message.ts) : null,
      pending: [],
    }
    this.frames.delete(topic)
    this.books.set(topic, followed)
    return followed
  }

  private reset(followed: FollowedBook, book: DepthBook): void {
    followed.book = book
    followed.pending = []
  }

  private lose(followed: FollowedBook): void {
    followed.book = null
  }
}
