/**
 * What every baseline server shares with the gateway's upstream side: one socket to the tick feed
 * (`baselines/tick-feed.ts`) receiving every frame, and the DEPTH books kept from its snapshots and
 * updates, so a new DEPTH subscriber gets a full snapshot as the contract asks.
 */
import { randomUUID } from 'node:crypto'
import { WebSocket } from 'ws'
import { FEED_TOKEN_HEADER } from '@tradegate/shared'
import { topicKey, type DepthFrame, type ServerFrame } from '../bench/scenario'

interface Book {
  seq: number
  ts: number
  bids: Map<string, string>
  asks: Map<string, string>
}

/**
 * Books from the feed's DEPTH frames. Levels keep the feed's order (it never adds a price a
 * snapshot did not have), so a snapshot is the maps read back in order.
 */
export class DepthBooks {
  private readonly books = new Map<string, Book>()

  apply(frame: DepthFrame): void {
    const { data } = frame
    let book = this.books.get(frame.symbol)
    if (data.snapshot || !book) {
      if (!data.snapshot) return
      book = { seq: data.seq, ts: frame.ts, bids: new Map(data.bids), asks: new Map(data.asks) }
      this.books.set(frame.symbol, book)
      return
    }
    if (data.seq <= book.seq) return
    book.seq = data.seq
    book.ts = frame.ts
    for (const [price, qty] of data.bids) {
      if (qty === '0') book.bids.delete(price)
      else book.bids.set(price, qty)
    }
    for (const [price, qty] of data.asks) {
      if (qty === '0') book.asks.delete(price)
      else book.asks.set(price, qty)
    }
  }

  snapshot(symbol: string): DepthFrame | undefined {
    const book = this.books.get(symbol)
    if (!book) return undefined
    return {
      type: 'DEPTH',
      symbol,
      data: { snapshot: true, seq: book.seq, bids: [...book.bids], asks: [...book.asks] },
      ts: book.ts,
    }
  }
}

export function topicOfFrame(frame: ServerFrame): string {
  return topicKey(frame.type, frame.symbol, 'interval' in frame ? frame.interval : undefined)
}

/**
 * Opens the feed socket and hands each frame over with its topic and its text as received. The
 * promise resolves once the socket is open.
 */
export function subscribeToFeed(
  feedUrl: string,
  token: string,
  onFrame: (topic: string, frame: ServerFrame, text: string) => void,
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
    onFrame(topicOfFrame(frame), frame, text)
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
