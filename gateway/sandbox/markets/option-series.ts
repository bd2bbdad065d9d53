import { Decimal } from 'decimal.js'
import { YEAR_MS, toDecimal, type OptionCoin, type OptionExpiry } from '@tradegate/shared'
import type { Instrument } from './catalogue'

// The listed option series: rolling expiries in sandbox time and strikes around the spot. A strike,
// once listed for an expiry, stays listed until that expiry, so an order never loses its series.

/** Each tenor lists its next boundary: the next quarter hour, the next hour, the next midnight UTC. */
export const OPTION_TENORS_MS = [15 * 60_000, 3600_000, 24 * 3600_000] as const
/** An expiry closer than this is not offered; the tenor's next boundary is. */
const MIN_LIFE_MS = 60_000
/** Strikes shown each side of the at-the-money one. */
const STRIKES_EACH_SIDE = 4
/** Strike spacing is about half a standard deviation of the move until expiry. */
const SPACING_IN_DEVIATIONS = '0.5'
const NICE_STEPS = ['1', '2', '2.5', '5'] as const
/** The smallest order is worth about this many usdt of the coin. */
const MIN_ORDER_USDT = 10
const MAX_LOTS = 10_000

export const OPTION_RATE = '0.05'

interface Series {
  expiresAt: number
  step: Decimal
  strikes: Set<string>
}

/** Lot size: a power of ten near MIN_ORDER_USDT of the coin at its listing price. */
export function lotSizeOf(instrument: Instrument): Decimal {
  const exponent = Math.ceil(Math.log10(MIN_ORDER_USDT / Number(instrument.startPrice)))
  return toDecimal(10).pow(Math.max(exponent, -instrument.quantityPlaces))
}

export function maxQuantityOf(instrument: Instrument): Decimal {
  return lotSizeOf(instrument).times(MAX_LOTS)
}

/** The largest of 1, 2, 2.5 or 5 times a power of ten that is not above `value`, at least one price tick. */
export function niceStep(value: Decimal, pricePlaces: number): Decimal {
  const tick = toDecimal(10).pow(-pricePlaces)
  if (!value.greaterThan(tick)) return tick
  const power = toDecimal(10).pow(Math.floor(Decimal.log10(value).toNumber()))
  const candidates = NICE_STEPS.map((step) => power.times(step)).filter((step) =>
    step.lessThanOrEqualTo(value),
  )
  const best = candidates.at(-1) ?? power
  return best.greaterThan(tick) ? best : tick
}

export class OptionSeriesBook {
  /** by `${symbol}|${expiresAt}` */
  private readonly series = new Map<string, Series>()

  /** The expiries open now, soonest first. */
  openExpiries(now: number): number[] {
    const expiries = new Set<number>()
    for (const tenor of OPTION_TENORS_MS) expiries.add(Math.ceil((now + MIN_LIFE_MS) / tenor) * tenor)
    return [...expiries].sort((a, b) => a - b)
  }

  /** Lists the strikes around `spot` for every open expiry, and drops series that have expired. */
  chain(instrument: Instrument, spot: Decimal, volatility: Decimal, now: number): OptionExpiry[] {
    for (const [key, series] of this.series) if (series.expiresAt <= now) this.series.delete(key)
    return this.openExpiries(now).map((expiresAt) => {
      const series = this.listed(instrument, expiresAt, spot, volatility, now)
      const atTheMoney = spot.dividedBy(series.step).round().times(series.step)
      const strikes: string[] = []
      for (let offset = -STRIKES_EACH_SIDE; offset <= STRIKES_EACH_SIDE; offset++) {
        const strike = atTheMoney.plus(series.step.times(offset))
        if (!strike.greaterThan(0)) continue
        series.strikes.add(strike.toFixed())
        strikes.push(strike.toFixed())
      }
      return { expiresAt, strikes }
    })
  }

  /** Whether this strike is listed for this expiry of the symbol (expired series are not). */
  isListed(symbol: string, expiresAt: number, strike: Decimal): boolean {
    return this.series.get(`${symbol}|${expiresAt}`)?.strikes.has(strike.toFixed()) ?? false
  }

  private listed(
    instrument: Instrument,
    expiresAt: number,
    spot: Decimal,
    volatility: Decimal,
    now: number,
  ): Series {
    const key = `${instrument.symbol}|${expiresAt}`
    let series = this.series.get(key)
    if (!series) {
      const life = Math.max(expiresAt - now, OPTION_TENORS_MS[0])
      const deviation = spot.times(volatility).times(toDecimal(life).dividedBy(YEAR_MS).sqrt())
      series = {
        expiresAt,
        step: niceStep(deviation.times(SPACING_IN_DEVIATIONS), instrument.pricePlaces),
        strikes: new Set(),
      }
      this.series.set(key, series)
    }
    return series
  }
}

export function optionFeeOf(instrument: Instrument): Pick<OptionCoin, 'feeType' | 'feeValue'> {
  // gold shows the fixed per-order fee; the crypto coins a percent of the premium
  return instrument.coinType === 3 ? { feeType: 2, feeValue: '0.5' } : { feeType: 1, feeValue: '1' }
}
