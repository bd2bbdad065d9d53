import { Decimal } from 'decimal.js'
import { DEPTH_LEVELS, type DepthData, type DepthLevel } from '@tradegate/shared'

// One symbol's order book, rebuilt from a DEPTH snapshot and its numbered updates, and written back
// out as the snapshot frame a new subscriber starts from.

/** Levels kept a side beyond the published top, so a removal near the top does not leave it short. */
const KEPT_LEVELS = DEPTH_LEVELS * 4

interface Level {
  price: Decimal
  /** the price written canonically (no exponent, no trailing zeros): the level's identity */
  key: string
  qty: string
}

/** A price or quantity in one spelling, so "100.50" and "1.005e2" name the same level. */
function canonical(value: Decimal): string {
  return value.toFixed()
}

/** Levels with a positive price and a non-negative quantity, written canonically; null if any is not. */
export function canonicalLevels(levels: readonly DepthLevel[]): DepthLevel[] | null {
  const out: DepthLevel[] = []
  for (const [price, qty] of levels) {
    const p = new Decimal(price)
    const q = new Decimal(qty)
    if (!p.isFinite() || !q.isFinite() || p.lte(0) || q.isNegative()) return null
    out.push([canonical(p), canonical(q)])
  }
  return out
}

class BookSide {
  /** best first */
  private levels: Level[] = []

  constructor(private readonly highestFirst: boolean) {}

  /** Sets a level's quantity; quantity zero removes it. Levels arrive canonical. */
  set(key: string, qty: string): void {
    const price = new Decimal(key)
    const index = this.search(price)
    const found = index < this.levels.length && this.levels[index]!.price.eq(price)
    if (new Decimal(qty).isZero()) {
      if (found) this.levels.splice(index, 1)
      return
    }
    if (found) this.levels[index]!.qty = qty
    else this.levels.splice(index, 0, { price, key, qty })
    if (this.levels.length > KEPT_LEVELS) this.levels.length = KEPT_LEVELS
  }

  top(count: number): DepthLevel[] {
    return this.levels.slice(0, count).map((level) => [level.key, level.qty])
  }

  /** Index of the first level not better than `price`. */
  private search(price: Decimal): number {
    let low = 0
    let high = this.levels.length
    while (low < high) {
      const middle = (low + high) >>> 1
      const comparison = this.levels[middle]!.price.cmp(price)
      const better = this.highestFirst ? comparison > 0 : comparison < 0
      if (better) low = middle + 1
      else high = middle
    }
    return low
  }
}

export class DepthBook {
  private readonly bids = new BookSide(true)
  private readonly asks = new BookSide(false)
  private frame: string | null = null

  private constructor(
    readonly symbol: string,
    private sequence: number,
    private ts: number,
  ) {}

  /** A book from a snapshot whose levels are already canonical. */
  static fromSnapshot(symbol: string, data: DepthData, ts: number): DepthBook {
    const book = new DepthBook(symbol, data.seq, ts)
    book.setLevels(data)
    return book
  }

  get seq(): number {
    return this.sequence
  }

  /** Applies an update with canonical levels; false (and the book unchanged) when its seq does not follow. */
  apply(data: DepthData, ts: number): boolean {
    if (data.seq !== this.sequence + 1) return false
    this.setLevels(data)
    this.sequence = data.seq
    this.ts = ts
    this.frame = null
    return true
  }

  /** The whole book (top DEPTH_LEVELS a side) as a DEPTH snapshot frame, written once per seq. */
  snapshotFrame(): string {
    this.frame ??= JSON.stringify({
      type: 'DEPTH',
      symbol: this.symbol,
      data: {
        snapshot: true,
        seq: this.sequence,
        bids: this.bids.top(DEPTH_LEVELS),
        asks: this.asks.top(DEPTH_LEVELS),
      },
      ts: this.ts,
    })
    return this.frame
  }

  private setLevels(data: DepthData): void {
    for (const [price, qty] of data.bids) this.bids.set(price, qty)
    for (const [price, qty] of data.asks) this.asks.set(price, qty)
  }
}

const SNAPSHOT_FIELD = '"snapshot":'
const SEQ_FIELD = '"seq":'

/**
 * The snapshot flag and seq of a DEPTH frame the gateway wrote (`{"type":"DEPTH","symbol":…,
 * "data":{"snapshot":…,"seq":…`), read without parsing the levels; null for any other bytes.
 */
export function readDepthHeader(payload: Buffer): { snapshot: boolean; seq: number } | null {
  const flagAt = payload.indexOf(SNAPSHOT_FIELD)
  if (flagAt < 0) return null
  const seqAt = payload.indexOf(SEQ_FIELD, flagAt)
  if (seqAt < 0) return null
  let seq = 0
  let digits = 0
  for (let i = seqAt + SEQ_FIELD.length; i < payload.length; i++) {
    const byte = payload[i]!
    if (byte < 0x30 || byte > 0x39) break
    seq = seq * 10 + (byte - 0x30)
    digits++
  }
  if (digits === 0) return null
  return { snapshot: payload[flagAt + SNAPSHOT_FIELD.length] === 0x74 /* t */, seq }
}
