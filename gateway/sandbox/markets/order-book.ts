import { DEPTH_LEVELS, toDecimal, type DepthData, type DepthLevel } from '@tradegate/shared'
import type { Decimal } from 'decimal.js'
import type { Random } from '@tradegate/shared'
import type { Instrument } from './catalogue'

// One symbol's limit order book: simulated liquidity on a price grid around the random-walk price,
// plus every resting user limit order. Prices are counted in ticks of the pair's price precision and
// quantities in units of its quantity precision, so the book works in exact integers and turns them
// into decimals only at its edges.

/** Grid levels of simulated liquidity kept on each side; more than a snapshot shows. */
const SIMULATED_LEVELS = 60
/** The grid step is about this fraction of the price, rounded down to 1, 2 or 5 × 10ⁿ ticks. */
const STEP_FRACTION = 0.00015
/** usdt value of a typical simulated level near the price; levels further out hold more. */
const TYPICAL_LEVEL_USDT = 2000
/** Simulated levels whose quantity changes each tick, per side, so the book looks alive. */
const CHANGES_PER_TICK = 2

export type BookSide = 'buy' | 'sell'

/** A user's limit order as the book holds it; the order desk owns the rest of the order. */
export interface RestingOrder {
  id: number
  userId: string
  side: BookSide
  /** in ticks */
  price: number
  /** unfilled quantity, in units */
  remaining: number
}

/** One step of walking the book: a quantity at a level, from a user's order or the simulation. */
export interface BookFill {
  price: number
  qty: number
  maker: RestingOrder | null
}

interface Levels {
  bids: Map<number, number>
  asks: Map<number, number>
}

interface Side {
  simulated: Map<number, number>
  resting: Map<number, RestingOrder[]>
}

export class OrderBook {
  readonly priceScale: number
  readonly quantityScale: number
  /** grid step in ticks */
  private readonly step: number
  private readonly typicalUnits: number
  private readonly bids: Side = { simulated: new Map(), resting: new Map() }
  private readonly asks: Side = { simulated: new Map(), resting: new Map() }
  private seq = 0
  /** the price, in ticks, the simulated liquidity was last placed around */
  private at = 0
  /** the price the book has moved to since, not yet followed */
  private movedTo: Decimal | null = null
  /** the top levels as last published: price ticks → quantity units */
  private published: Levels = { bids: new Map(), asks: new Map() }

  constructor(
    readonly instrument: Instrument,
    private readonly random: Random,
    price: Decimal,
  ) {
    this.priceScale = 10 ** instrument.pricePlaces
    this.quantityScale = 10 ** instrument.quantityPlaces
    const start = Number(instrument.startPrice)
    this.step = niceStep(start * STEP_FRACTION * this.priceScale)
    this.typicalUnits = (TYPICAL_LEVEL_USDT / start) * this.quantityScale
    this.moveTo(price)
    this.follow()
    this.published = this.topLevels()
  }

  /** A price in ticks; the caller has checked it has no more places than the pair's. */
  ticks(price: Decimal): number {
    return price.times(this.priceScale).toNumber()
  }

  /** A quantity in units; the caller has checked it has no more places than the pair's. */
  units(quantity: Decimal): number {
    return quantity.times(this.quantityScale).toNumber()
  }

  priceOf(ticks: number): Decimal {
    return toDecimal(unitsText(ticks, this.instrument.pricePlaces))
  }

  quantityOf(units: number): Decimal {
    return toDecimal(unitsText(units, this.instrument.quantityPlaces))
  }

  /** Moves the book to a new price; its simulated liquidity follows when the book is next read. */
  moveTo(price: Decimal): void {
    this.movedTo = price
  }

  /** Rests a user's order; its price must not cross the simulated price (the desk fills those). */
  rest(order: RestingOrder): void {
    const side = order.side === 'buy' ? this.bids : this.asks
    const queue = side.resting.get(order.price)
    if (queue) queue.push(order)
    else side.resting.set(order.price, [order])
  }

  remove(order: RestingOrder): void {
    const side = order.side === 'buy' ? this.bids : this.asks
    const queue = side.resting.get(order.price)
    if (!queue) return
    const left = queue.filter((row) => row !== order)
    if (left.length > 0) side.resting.set(order.price, left)
    else side.resting.delete(order.price)
  }

  /** Resting user orders the price has reached: buys at or above it, sells at or below it. */
  crossedBy(price: Decimal): RestingOrder[] {
    const at = this.ticks(price)
    const crossed: RestingOrder[] = []
    for (const [level, queue] of this.bids.resting) if (level >= at) crossed.push(...queue)
    for (const [level, queue] of this.asks.resting) if (level <= at) crossed.push(...queue)
    return crossed
  }

  /**
   * How an order of `units` taking liquidity would fill, best level first and, within a level, users'
   * orders in time order before the simulated quantity; nothing changes until `take`. A limit (in
   * ticks) stops the walk; the taker's own orders are skipped.
   */
  plan(side: BookSide, units: number, limit: number | null, takerId: string): BookFill[] {
    this.follow()
    const opposite = side === 'buy' ? this.asks : this.bids
    const better = side === 'buy' ? (a: number, b: number) => a - b : (a: number, b: number) => b - a
    const levels = [...new Set([...opposite.simulated.keys(), ...opposite.resting.keys()])].sort(better)
    const fills: BookFill[] = []
    let left = units
    for (const price of levels) {
      if (left <= 0) break
      if (limit !== null && better(price, limit) > 0) break
      for (const maker of opposite.resting.get(price) ?? []) {
        if (left <= 0) break
        if (maker.userId === takerId) continue
        const qty = Math.min(left, maker.remaining)
        fills.push({ price, qty, maker })
        left -= qty
      }
      const simulated = opposite.simulated.get(price) ?? 0
      if (left > 0 && simulated > 0) {
        const qty = Math.min(left, simulated)
        fills.push({ price, qty, maker: null })
        left -= qty
      }
    }
    return fills
  }

  /** Consumes what a plan filled; a user's order that is used up leaves the book. */
  take(side: BookSide, fills: readonly BookFill[]): void {
    const opposite = side === 'buy' ? this.asks : this.bids
    for (const fill of fills) {
      if (fill.maker) {
        fill.maker.remaining -= fill.qty
        if (fill.maker.remaining <= 0) this.remove(fill.maker)
        continue
      }
      const left = (opposite.simulated.get(fill.price) ?? 0) - fill.qty
      if (left > 0) opposite.simulated.set(fill.price, left)
      else opposite.simulated.delete(fill.price)
    }
  }

  /** The whole published book, for a new subscriber. */
  snapshot(): DepthData {
    // the published maps were built best level first
    return {
      snapshot: true,
      seq: this.seq,
      bids: [...this.published.bids].map(([price, units]) => this.level(price, units)),
      asks: [...this.published.asks].map(([price, units]) => this.level(price, units)),
    }
  }

  /**
   * The levels that changed since the last publication, as an update with the next seq; null when
   * nothing did. Changes between two calls are batched into one update.
   */
  update(): DepthData | null {
    this.follow()
    const next = this.topLevels()
    const bids = this.changedLevels(this.published.bids, next.bids)
    const asks = this.changedLevels(this.published.asks, next.asks)
    if (bids.length === 0 && asks.length === 0) return null
    this.published = next
    this.seq++
    return { snapshot: false, seq: this.seq, bids, asks }
  }

  private topLevels(): Levels {
    return { bids: this.top(this.bids, -1), asks: this.top(this.asks, 1) }
  }

  /**
   * The best DEPTH_LEVELS levels of a side, best first, in ticks and units: the simulated grid walked
   * outwards from the price, merged with the (few) prices users' orders rest at.
   */
  private top(side: Side, direction: 1 | -1): Map<number, number> {
    const resting = [...side.resting.keys()].sort((a, b) => (a - b) * direction)
    const ratio = this.at / this.step
    let grid = direction === 1 ? Math.floor(ratio) + 1 : Math.ceil(ratio) - 1
    const lastGrid = Math.round(ratio) + direction * (SIMULATED_LEVELS + 5)
    let next = 0
    const levels = new Map<number, number>()
    while (levels.size < DEPTH_LEVELS) {
      const gridPrice = (grid - lastGrid) * direction <= 0 && grid > 0 ? grid * this.step : null
      const restingPrice = resting[next] ?? null
      if (gridPrice === null && restingPrice === null) break
      let price: number
      if (restingPrice !== null && (gridPrice === null || (restingPrice - gridPrice) * direction <= 0)) {
        price = restingPrice
        next++
        if (price === gridPrice) grid += direction
      } else {
        price = gridPrice as number
        grid += direction
      }
      let units = side.simulated.get(price) ?? 0
      for (const order of side.resting.get(price) ?? []) units += order.remaining
      if (units > 0) levels.set(price, units)
    }
    return levels
  }

  private level(price: number, units: number): DepthLevel {
    return [unitsText(price, this.instrument.pricePlaces), unitsText(units, this.instrument.quantityPlaces)]
  }

  /** Levels whose quantity differs, with "0" for a level that left. */
  private changedLevels(before: Map<number, number>, after: Map<number, number>): DepthLevel[] {
    const changes: DepthLevel[] = []
    for (const [price, units] of after)
      if (before.get(price) !== units) changes.push(this.level(price, units))
    for (const price of before.keys()) if (!after.has(price)) changes.push(this.level(price, 0))
    return changes
  }

  /**
   * Places the simulated liquidity around the latest price: levels the price walked through are
   * gone, the grid is refilled on both sides, and a few levels change size. Done when the book is
   * walked or published rather than every tick, which is all that anyone sees of it.
   */
  private follow(): void {
    if (!this.movedTo) return
    const at = this.ticks(this.movedTo)
    this.movedTo = null
    this.at = at
    const centre = Math.round(at / this.step)
    this.refill(this.asks.simulated, at, centre, 1)
    this.refill(this.bids.simulated, at, centre, -1)
  }

  /** direction 1 fills asks above the price, -1 bids below it. */
  private refill(levels: Map<number, number>, at: number, centre: number, direction: 1 | -1): void {
    const nearest = centre + direction
    const farthest = centre + direction * (SIMULATED_LEVELS + 5)
    for (const price of levels.keys()) {
      const walkedThrough = direction === 1 ? price <= at : price >= at
      const tooFar = direction === 1 ? price > farthest * this.step : price < farthest * this.step
      if (walkedThrough || tooFar) levels.delete(price)
    }
    for (let distance = 0; distance < SIMULATED_LEVELS; distance++) {
      const price = (nearest + direction * distance) * this.step
      if (price > 0 && !levels.has(price)) levels.set(price, this.levelSize(distance))
    }
    for (let change = 0; change < CHANGES_PER_TICK; change++) {
      const distance = Math.floor(this.random.next() * SIMULATED_LEVELS)
      const price = (nearest + direction * distance) * this.step
      if (levels.has(price)) levels.set(price, this.levelSize(distance))
    }
  }

  private levelSize(distance: number): number {
    const size = this.typicalUnits * (0.2 + 1.8 * this.random.next()) * (1 + distance / 20)
    return Math.max(1, Math.round(size))
  }
}

/** 1, 2 or 5 × 10ⁿ, the largest not above `raw`, and at least 1. */
function niceStep(raw: number): number {
  if (raw < 1) return 1
  const power = 10 ** Math.floor(Math.log10(raw))
  const leading = raw / power
  return (leading >= 5 ? 5 : leading >= 2 ? 2 : 1) * power
}

/** A non-negative integer count of 10^-places as plain decimal text, without trailing zeros. */
export function unitsText(units: number, places: number): string {
  const digits = String(units)
  if (places === 0) return digits
  const padded = digits.padStart(places + 1, '0')
  const whole = padded.slice(0, -places)
  const fraction = padded.slice(-places).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}
