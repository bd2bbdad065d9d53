import { Decimal } from 'decimal.js'
import { toDecimal } from '@tradegate/shared'

// A contract pair's reference prices. The sandbox has one venue, so its index stands in for a
// many-venue index by taking the median of the last INDEX_TICKS prices: one print far from the rest
// (a wick) does not move it. The mark is a moving average of the index, so it follows a sustained
// move within a few ticks and a lone print not at all; contract PnL and liquidation watch the mark.
// Funding is settled every FUNDING_INTERVAL_MS at the rate the premium of mark over index gives.

/** How many last prices the index is the median of. */
export const INDEX_TICKS = 5
/** The share of the gap to the index the mark closes each tick. */
const MARK_SMOOTHING = toDecimal('0.25')
/** Funding times fall on whole multiples of this, in sandbox time: 00:00, 08:00 and 16:00 UTC. */
export const FUNDING_INTERVAL_MS = 8 * 3600_000
/** The rate with no premium: 0.01 % an interval, longs paying, as the large exchanges quote it. */
const BASE_FUNDING_RATE = toDecimal('0.0001')
/** No interval's rate goes past ±0.75 %. */
const FUNDING_RATE_CAP = toDecimal('0.0075')
const FUNDING_RATE_PLACES = 6

export class ReferencePrices {
  private readonly recent: Decimal[]
  private mark: Decimal

  constructor(
    start: Decimal,
    private readonly places: number,
  ) {
    this.recent = Array.from({ length: INDEX_TICKS }, () => start)
    this.mark = start
  }

  /** Takes the pair's newest last price: the index window moves on and the mark one step toward it. */
  note(last: Decimal): void {
    this.recent.push(last)
    this.recent.shift()
    const gap = this.index.minus(this.mark)
    // rounded away from zero at the pair's tick, so the mark reaches a still index instead of
    // stopping a tick short of it
    this.mark = this.mark.plus(gap.times(MARK_SMOOTHING).toDecimalPlaces(this.places, Decimal.ROUND_UP))
  }

  get index(): Decimal {
    const sorted = [...this.recent].sort((a, b) => a.comparedTo(b))
    return sorted[Math.floor(sorted.length / 2)]!
  }

  get markPrice(): Decimal {
    return this.mark
  }

  /** The premium of mark over index plus the base rate, within the cap, per funding interval. */
  get fundingRate(): Decimal {
    const index = this.index
    const premium = index.isZero() ? toDecimal(0) : this.mark.minus(index).dividedBy(index)
    const rate = premium.plus(BASE_FUNDING_RATE).toDecimalPlaces(FUNDING_RATE_PLACES, Decimal.ROUND_HALF_EVEN)
    if (rate.greaterThan(FUNDING_RATE_CAP)) return FUNDING_RATE_CAP
    return rate.lessThan(FUNDING_RATE_CAP.negated()) ? FUNDING_RATE_CAP.negated() : rate
  }
}

/** The first funding time after `now`. */
export function nextFundingTime(now: number): number {
  return (Math.floor(now / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS
}
