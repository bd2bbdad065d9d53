/**
 * What every baseline server shares with the gateway's upstream side: one socket to the tick feed
 * (`baselines/tick-feed.ts`) receiving every frame, and the DEPTH books kept from its snapshots and
 * updates, so a new DEPTH subscriber gets a full snapshot as the contract asks.
 */
import { randomUUID } from 'node:crypto'
import { WebSocket } from 'ws'
import { applyDepthUpdate, bookFromSnapshot, FEED_TOKEN_HEADER, type DepthBookState } from '@tradegate/shared'
import { topicKey, type DepthFrame, type ServerFrame } from '../bench/scenario'

/** Books from the feed's DEPTH frames, each kept by shared/'s one book: a snapshot, then updates in sequence. */
export class DepthBooks {
  private readonly books = new Map<string, { book: DepthBookState; ts: number }>()

  apply(frame: DepthFrame): void {
    const held = this.books.get(frame.symbol)
    const result = frame.data.snapshot
      ? { book: bookFromSnapshot(frame.data) }
      : held && applyDepthUpdate(held.book, frame.data)
    if (result && 'book' in result) this.books.set(frame.symbol, { book: result.book, ts: frame.ts })
  }

  snapshot(symbol: string): DepthFrame | undefined {
    const held = this.books.get(symbol)
    if (!held) return undefined
    const { seq, bids, asks } = held.book
    return {
      type: 'DEPTH',
      symbol,
      data: { snapshot: true, seq, bids: [...bids], asks: [...asks] },
      ts: held.ts,
    }
  }
}

export function topicOfFrame(frame: ServerFrame): string {
  return topicKey(frame.type, frame.symbol, 'interval' in frame ? frame.interval : undefined)
}

/**
 * Opens the feed socket and hands each frame over with its topic and its text as received; with
 * `books`, DEPTH frames are applied to them and a snapshot (which only replaces a book: subscribers
 * hold theirs already) is not handed over. The promise resolves once the socket is open.
 */
export function subscribeToFeed(
  feedUrl: string,
  token: string,
  onFrame: (topic: string, frame: ServerFrame, text: string) => void,
  books?: DepthBooks,
): Promise<{ close(): void }> {
  const socket = new WebSocket(`${feedUrl.replace(/^http/, 'ws')}/ws/${randomUUID()}`, {
    headers: { [FEED_TOKEN_HEADER]: token },
    perMessageDeflate: false,
  })
  socket.on('message', (data, isBinary) => {
    if (isBinary) return
    const text = data.toString()
    let frame: ServerFrame
    try {
      frame = JSON.parse(text) as ServerFrame
    } catch {
      return
    }
    if (typeof frame.symbol !== 'string') return
    if (books && frame.type === 'DEPTH') books.apply(frame)
    if (!books || frame.type !== 'DEPTH' || !frame.data.snapshot) onFrame(topicOfFrame(frame), frame, text)
  })
  return new Promise((resolve, reject) => {
    socket.once('error', reject)
    socket.once('open', () => {
      socket.off('error', reject)
      socket.on('error', () => socket.terminate())
      resolve({ close: () => socket.terminate() })
    })
  })
}
