import type { ServerFrame } from '@tradegate/shared'
import { useLiveStream } from '../../../lib/live/use-live-stream'
import { applyDepth, type OrderBook } from '../lib/order-book'

function foldDepth(
  previous: OrderBook | undefined,
  frame: ServerFrame,
  resync: () => void,
): OrderBook | undefined {
  if (frame.type !== 'DEPTH') return previous
  const { book, gap } = applyDepth(previous, frame.data)
  if (gap) resync()
  return book
}

/** The live order book of one symbol from the DEPTH stream, re-synced on a sequence gap. */
export function useDepth(symbol: string | null): OrderBook | undefined {
  return useLiveStream(symbol ? { operation: 'subscribe', type: 'DEPTH', symbol } : null, 'depth', foldDepth)
}
