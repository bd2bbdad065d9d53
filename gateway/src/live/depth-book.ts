import { Decimal } from 'decimal.js'
import {
  DEPTH_LEVELS,
  applyDepthUpdate,
  bookFromSnapshot,
  type DepthBookState,
  type DepthData,
  type DepthLevel,
  type DepthUpdateResult,
  depthTopic,
} from '@tradegate/shared'
import { busMessage, type BusMessage } from './bus-message'

// One symbol's order book, rebuilt from a DEPTH snapshot and its numbered updates by the shared rules
// (shared/src/depth-book.ts), and written back out as the snapshot message a new subscriber starts from.

/** Levels kept a side beyond the published top, so a removal near the top does not leave it short. */
const KEPT_LEVELS = DEPTH_LEVELS * 4

/** A decimal already in the one spelling `toFixed` writes: no sign, exponent, leading or trailing zeros. */
const CANONICAL = /^(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/

/**
 * A price or quantity in one spelling, so "100.50" and "1.005e2" name the same level; null if it is not
 * a finite number. A DEPTH frame's levels nearly always come canonical already, and are kept as they are.
 */
function canonical(text: string): { text: string; sign: number } | null {
  if (CANONICAL.test(text)) return { text, sign: text === '0' ? 0 : 1 }
  const value = new Decimal(text)
  if (!value.isFinite()) return null
  return { text: value.toFixed(), sign: value.isNegative() ? -1 : value.isZero() ? 0 : 1 }
}

/** Levels with a positive price and a non-negative quantity, written canonically; null if any is not. */
export function canonicalLevels(levels: readonly DepthLevel[]): DepthLevel[] | null {
  const out: DepthLevel[] = []
  for (const [priceText, qtyText] of levels) {
    const price = canonical(priceText)
    const qty = canonical(qtyText)
    if (!price || !qty || price.sign <= 0 || qty.sign < 0) return null
    out.push([price.text, qty.text])
  }
  return out
}

/** A book built by the shared DEPTH rules, kept with the snapshot message it writes for new subscribers. */
export class DepthBook {
  private message: BusMessage | null = null

  private constructor(
    readonly symbol: string,
    private state: DepthBookState,
    private ts: number,
  ) {}

  /** A book from a snapshot whose levels are already canonical. */
  static fromSnapshot(symbol: string, data: DepthData, ts: number): DepthBook {
    return new DepthBook(symbol, bookFromSnapshot(data, KEPT_LEVELS), ts)
  }

  get seq(): number {
    return this.state.seq
  }

  /**
   * Applies an update with canonical levels by the shared rule: 'applied', or (the book unchanged)
   * 'old' for one it already holds and 'gap' for one that does not follow.
   */
  apply(data: DepthData, ts: number): DepthUpdateResult['outcome'] {
    const result = applyDepthUpdate(this.state, data, KEPT_LEVELS)
    if (result.outcome !== 'applied') return result.outcome
    this.state = result.book
    this.ts = ts
    this.message = null
    return 'applied'
  }

  /** The whole book (top DEPTH_LEVELS a side) as a DEPTH snapshot message: made once per seq, its bytes written when first read. */
  snapshotMessage(): BusMessage {
    this.message ??= busMessage(depthTopic(this.symbol), {
      type: 'DEPTH',
      symbol: this.symbol,
      data: {
        snapshot: true,
        seq: this.state.seq,
        bids: this.state.bids.slice(0, DEPTH_LEVELS),
        asks: this.state.asks.slice(0, DEPTH_LEVELS),
      },
      ts: this.ts,
    })
    return this.message
  }
}
