import { Decimal } from 'decimal.js'
import {
  add,
  applyDepthUpdate,
  bookFromSnapshot,
  div,
  showPrice,
  sub,
  toDecimal,
  type DepthBookState,
  type DepthData,
  type DepthLevel,
} from '@tradegate/shared'

// The order book a DEPTH stream builds, by the shared rules (shared/src/depth-book.ts) the gateway
// builds its books with, plus what the screen needs: a stale book waits for the snapshot it asked for.

/** A snapshot asked for and not come by then is asked for again, while updates show the stream is alive. */
export const RESYNC_RETRY_MS = 3000

export interface OrderBook extends DepthBookState {
  /** a gap was seen and a new snapshot asked for: updates wait for it */
  stale: boolean
  /** when the snapshot a stale book waits for was last asked for (ms) */
  askedAt?: number
}

export interface BookStep {
  book: OrderBook | undefined
  /** an update was missed: the caller asks for a fresh snapshot */
  gap: boolean
}

/**
 * Applies one DEPTH frame. A snapshot replaces the book; an update must carry the next seq. `now`
 * (ms) paces the requests for a snapshot that does not come.
 */
export function applyDepth(book: OrderBook | undefined, data: DepthData, now = Date.now()): BookStep {
  if (data.snapshot) return { book: { ...bookFromSnapshot(data), stale: false }, gap: false }
  if (book?.stale) {
    // the snapshot asked for is on its way: one request per gap, not one per update, unless it is lost
    if (now - (book.askedAt ?? 0) < RESYNC_RETRY_MS) return { book, gap: false }
    return { book: { ...book, askedAt: now }, gap: true }
  }
  // an update with no snapshot before it, or past a missed one: the book cannot be trusted
  if (!book) return { book: { seq: data.seq, stale: true, askedAt: now, bids: [], asks: [] }, gap: true }
  const step = applyDepthUpdate(book, data)
  if (step.outcome === 'old') return { book, gap: false }
  if (step.outcome === 'gap') return { book: { ...book, stale: true, askedAt: now }, gap: true }
  return { book: { ...step.book, stale: false }, gap: false }
}

export interface BookRow {
  price: string
  quantity: Decimal
  /** the quantity from the best price up to and including this row */
  cumulative: Decimal
}

/** The price of the group a price falls in: bids down to the step, asks up to it. */
export function groupOf(price: string, step: string, side: 'bid' | 'ask'): string {
  const size = toDecimal(step)
  if (size.isZero()) return toDecimal(price).toFixed()
  const units = div(price, size)
  return (side === 'bid' ? units.floor() : units.ceil()).times(size).toFixed(size.decimalPlaces())
}

/**
 * Groups levels into price steps: bids down to the step below, asks up to the step above, so a
 * grouped price is never better than what the book holds.
 */
export function aggregate(
  levels: readonly DepthLevel[],
  step: string,
  side: 'bid' | 'ask',
  rows: number,
): BookRow[] {
  const grouped: BookRow[] = []
  let cumulative = toDecimal(0)
  for (const [price, quantity] of levels) {
    const text = groupOf(price, step, side)
    cumulative = cumulative.plus(toDecimal(quantity))
    const last = grouped[grouped.length - 1]
    if (last && last.price === text) {
      last.quantity = last.quantity.plus(toDecimal(quantity))
      last.cumulative = cumulative
    } else {
      if (grouped.length === rows) break
      grouped.push({ price: text, quantity: toDecimal(quantity), cumulative })
    }
  }
  return grouped
}

/** The gap between the best ask and the best bid, and the price midway; null on an empty side. */
export function spreadOf(
  book: OrderBook | undefined,
): { spread: Decimal; mid: Decimal; percent: Decimal } | null {
  const bid = book?.bids[0]?.[0]
  const ask = book?.asks[0]?.[0]
  if (bid === undefined || ask === undefined) return null
  const spread = sub(ask, bid)
  const mid = div(add(ask, bid), 2)
  return { spread, mid, percent: div(spread.times(100), mid) }
}

/**
 * Grouping steps for a pair: the smallest is one unit of the last digit the price is shown with, or
 * the power of ten just under the gap between two levels when the book is coarser than that; then
 * ten, a hundred and a thousand of it.
 */
export function bookSteps(price: string, levelGap?: Decimal): string[] {
  const decimals = showPrice(price).split('.')[1]?.length ?? 0
  const gapPower = levelGap?.greaterThan(0) ? Math.floor(Math.log10(levelGap.toNumber())) : -Infinity
  const start = Math.max(-decimals, gapPower)
  return [0, 1, 2, 3].map((power) =>
    new Decimal(10).pow(start + power).toFixed(Math.max(0, -(start + power))),
  )
}

/** The smallest gap between neighbouring levels near the top of one side: the book's price grid. */
export function levelGap(levels: readonly DepthLevel[]): Decimal | undefined {
  let gap: Decimal | undefined
  for (let index = 1; index < Math.min(levels.length, 10); index++) {
    const step = sub(levels[index - 1]?.[0], levels[index]?.[0]).abs()
    if (step.greaterThan(0) && (!gap || step.lessThan(gap))) gap = step
  }
  return gap
}
