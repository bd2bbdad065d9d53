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

/**
 * Where a plain decimal's point is (its length when it has none), or -1 for any other spelling (a sign,
 * an exponent, no digits): a plain one is compared by its digits, without a Decimal.
 */
function pointOf(text: string): number {
  let point = -1
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 46) {
      if (point >= 0 || index === 0 || index === text.length - 1) return -1
      point = index
    } else if (code < 48 || code > 57) return -1
  }
  return text.length === 0 ? -1 : point < 0 ? text.length : point
}

/** The digit at `index` of a plain decimal, a missing one (past its end) read as 0. */
function digitAt(text: string, index: number): number {
  return index < text.length ? text.charCodeAt(index) : 48
}

/**
 * Two prices compared by decimal value (negative, equal, positive). The feed compares each change with
 * a handful of levels; allocating a Decimal for each comparison was most of what a DEPTH frame cost the
 * gateway, so plain decimals are compared digit by digit and only other spellings go through Decimal.
 */
export function comparePrices(a: string, b: string): number {
  const aPoint = pointOf(a)
  const bPoint = pointOf(b)
  if (aPoint < 0 || bPoint < 0) return new Decimal(a).cmp(b)
  // past leading zeros, a longer whole part is the larger number
  let aStart = 0
  while (aStart < aPoint - 1 && a.charCodeAt(aStart) === 48) aStart++
  let bStart = 0
  while (bStart < bPoint - 1 && b.charCodeAt(bStart) === 48) bStart++
  const wholeDigits = aPoint - aStart
  if (wholeDigits !== bPoint - bStart) return wholeDigits < bPoint - bStart ? -1 : 1
  for (let index = 0; index < wholeDigits; index++) {
    const difference = a.charCodeAt(aStart + index) - b.charCodeAt(bStart + index)
    if (difference !== 0) return difference < 0 ? -1 : 1
  }
  const fractionDigits = Math.max(a.length - aPoint, b.length - bPoint)
  for (let index = 1; index < fractionDigits; index++) {
    const difference = digitAt(a, aPoint + index) - digitAt(b, bPoint + index)
    if (difference !== 0) return difference < 0 ? -1 : 1
  }
  return 0
}

/** Whether a quantity is zero in any spelling. */
function isZeroQuantity(text: string): boolean {
  if (pointOf(text) < 0) return new Decimal(text).isZero()
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code !== 48 && code !== 46) return false
  }
  return true
}

/** Index of the first level not better than `price`. */
function searchSide(levels: readonly DepthLevel[], price: string, highestFirst: boolean): number {
  let low = 0
  let high = levels.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const comparison = comparePrices(levels[middle]![0], price)
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
    const index = searchSide(side, priceText, highestFirst)
    const found = index < side.length && comparePrices(priceText, side[index]![0]) === 0
    if (isZeroQuantity(qty)) {
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
