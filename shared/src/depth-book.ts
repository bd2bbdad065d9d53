import { Decimal } from 'decimal.js'
import type { DepthData, DepthLevel } from './protocol'

// The one way a DEPTH stream becomes an order book: a snapshot, then updates applied in sequence. The
// gateway's feed (lease holder), its followers and the client all build their books with these pure
// functions. Prices are compared by decimal value, so "100.10" and "100.1" are one level.

/** A book as far as its stream has built it: the last seq applied and each side, best first. */
export interface DepthBookState {
  seq: number
  /** highest first */
  bids: readonly DepthLevel[]
  /** lowest first */
  asks: readonly DepthLevel[]
}

export type DepthUpdateResult =
  | { outcome: 'applied'; book: DepthBookState }
  /** an update the book already holds (seq at or below the book's): nothing changes */
  | { outcome: 'old' }
  /** an update that does not follow: the book cannot be trusted until a new snapshot */
  | { outcome: 'gap' }

/** Levels kept a side when the caller names no bound. */
const UNBOUNDED = Number.POSITIVE_INFINITY

/** Index of the first level not better than `price`. */
function searchSide(levels: readonly DepthLevel[], price: Decimal, highestFirst: boolean): number {
  let low = 0
  let high = levels.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const comparison = new Decimal(levels[middle]![0]).cmp(price)
    if (highestFirst ? comparison > 0 : comparison < 0) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * One side with `changes` applied in order: a quantity of zero removes the level at that price, any
 * other sets it (written as the change writes it). At most `keep` levels stay, the worst dropped as
 * each change is applied. `levels` is not modified.
 */
export function mergeSide(
  levels: readonly DepthLevel[],
  changes: readonly DepthLevel[],
  best: 'high' | 'low',
  keep = UNBOUNDED,
): DepthLevel[] {
  const side = levels.slice()
  const highestFirst = best === 'high'
  for (const [priceText, qty] of changes) {
    const price = new Decimal(priceText)
    const index = searchSide(side, price, highestFirst)
    const found = index < side.length && price.eq(side[index]![0])
    if (new Decimal(qty).isZero()) {
      if (found) side.splice(index, 1)
      continue
    }
    if (found) side[index] = [priceText, qty]
    else side.splice(index, 0, [priceText, qty])
    if (side.length > keep) side.length = keep
  }
  return side
}

/** The book a DEPTH snapshot describes, its levels sorted best first. */
export function bookFromSnapshot(data: DepthData, keep = UNBOUNDED): DepthBookState {
  return {
    seq: data.seq,
    bids: mergeSide([], data.bids, 'high', keep),
    asks: mergeSide([], data.asks, 'low', keep),
  }
}

/**
 * The one sequence rule: where an update numbered `seq` stands against a book (or a reader) at
 * `heldSeq`. At or below it, already held; just above it, the next; any further, past a gap.
 */
export function seqStanding(heldSeq: number, seq: number): 'old' | 'next' | 'gap' {
  if (seq <= heldSeq) return 'old'
  return seq === heldSeq + 1 ? 'next' : 'gap'
}

/** A DEPTH update applied to a book: only the next seq changes it. */
export function applyDepthUpdate(book: DepthBookState, data: DepthData, keep = UNBOUNDED): DepthUpdateResult {
  const standing = seqStanding(book.seq, data.seq)
  if (standing !== 'next') return { outcome: standing }
  return {
    outcome: 'applied',
    book: {
      seq: data.seq,
      bids: mergeSide(book.bids, data.bids, 'high', keep),
      asks: mergeSide(book.asks, data.asks, 'low', keep),
    },
  }
}
