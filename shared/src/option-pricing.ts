import { Decimal } from 'decimal.js'
import { toDecimal } from './format'

// Black-Scholes prices of European options, worked entirely in decimal.js so that the client's live
// marks and the exchange's fills come out of the same arithmetic digit for digit, on any engine.

/** Working precision; far more than the 8 places a premium is quoted in, so rounding never shows. */
const OptionDecimal = Decimal.clone({ precision: 28, rounding: Decimal.ROUND_HALF_EVEN })

export const OPTION_KINDS = ['call', 'put'] as const
export type OptionKind = (typeof OPTION_KINDS)[number]

/** A year of 365 days, the convention volatility and rate are quoted in. */
export const YEAR_MS = 365 * 24 * 3600 * 1000
/** Places a premium per unit is quoted and charged in (usdt). */
export const PREMIUM_PLACES = 8

export interface OptionInputs {
  kind: OptionKind
  /** price of the underlying now */
  spot: Decimal.Value
  strike: Decimal.Value
  /** time left until expiry, in years; zero or less means expired */
  years: Decimal.Value
  /** annual volatility as a fraction, e.g. 0.8 for 80 % */
  volatility: Decimal.Value
  /** annual continuously compounded rate as a fraction */
  rate: Decimal.Value
}

export interface OptionQuote {
  /** fair value per unit of the underlying, rounded half-up to PREMIUM_PLACES */
  premium: Decimal
  /** change of the premium per unit change of the spot: 0 to 1 for a call, -1 to 0 for a put */
  delta: Decimal
}

const ZERO = new OptionDecimal(0)
const ONE = new OptionDecimal(1)
const HALF = new OptionDecimal('0.5')
const TWO = new OptionDecimal(2)
const INV_SQRT_2PI = ONE.dividedBy(OptionDecimal.acos(-1).times(2).sqrt())
/** Past this many standard deviations the normal tail is below 1e-23: the CDF is 0 or 1. */
const TAIL = new OptionDecimal(10)

function dec(value: Decimal.Value): Decimal {
  return new OptionDecimal(toDecimal(value))
}

/**
 * The standard normal distribution function, by the series
 * Φ(x) = 1/2 + φ(x)·(x + x³/3 + x⁵/(3·5) + …), whose terms are all of one sign.
 */
export function normalCdf(value: Decimal.Value): Decimal {
  const x = dec(value)
  if (x.greaterThan(TAIL)) return ONE
  if (x.lessThan(TAIL.negated())) return ZERO
  const squared = x.times(x)
  const epsilon = new OptionDecimal('1e-26')
  let term = x
  let sum = x
  for (let odd = 3; term.abs().greaterThan(epsilon); odd += 2) {
    term = term.times(squared).dividedBy(odd)
    sum = sum.plus(term)
  }
  const density = squared.dividedBy(TWO).negated().exp().times(INV_SQRT_2PI)
  return HALF.plus(density.times(sum))
}

/** What the option pays at expiry per unit of the underlying. */
export function intrinsicValue(kind: OptionKind, spot: Decimal.Value, strike: Decimal.Value): Decimal {
  const gain = kind === 'call' ? dec(spot).minus(dec(strike)) : dec(strike).minus(dec(spot))
  return gain.isPositive() && !gain.isZero() ? gain : ZERO
}

/** Years from `now` until `expiresAt` (epoch ms); negative once expired. */
export function yearsUntil(expiresAt: number, now: number): Decimal {
  return new OptionDecimal(expiresAt - now).dividedBy(YEAR_MS)
}

/**
 * Black-Scholes premium and delta of a European call or put on an underlying that pays nothing.
 * Expired (years ≤ 0) or certain (volatility 0) options are worth their discounted intrinsic value.
 * Throws a RangeError for a spot or strike that is not above zero or a negative volatility.
 */
export function blackScholes(inputs: OptionInputs): OptionQuote {
  const spot = dec(inputs.spot)
  const strike = dec(inputs.strike)
  const years = dec(inputs.years)
  const volatility = dec(inputs.volatility)
  const rate = dec(inputs.rate)
  if (!spot.greaterThan(0)) throw new RangeError('spot must be above zero')
  if (!strike.greaterThan(0)) throw new RangeError('strike must be above zero')
  if (volatility.isNegative()) throw new RangeError('volatility must not be negative')

  const call = inputs.kind === 'call'
  if (!years.greaterThan(0)) {
    const atTheMoney = spot.equals(strike)
    const delta = atTheMoney ? HALF : spot.greaterThan(strike) === call ? ONE : ZERO
    return quote(intrinsicValue(inputs.kind, spot, strike), call ? delta : delta.negated())
  }
  const discountedStrike = strike.times(rate.times(years).negated().exp())
  const spread = volatility.times(years.sqrt())
  if (spread.isZero()) {
    const inTheMoney = call ? spot.greaterThan(discountedStrike) : spot.lessThan(discountedStrike)
    const value = intrinsicValue(inputs.kind, spot, discountedStrike)
    return quote(value, inTheMoney ? (call ? ONE : ONE.negated()) : ZERO)
  }
  const d1 = spot
    .dividedBy(strike)
    .ln()
    .plus(rate.plus(volatility.times(volatility).dividedBy(TWO)).times(years))
    .dividedBy(spread)
  const d2 = d1.minus(spread)
  if (call) {
    const delta = normalCdf(d1)
    return quote(spot.times(delta).minus(discountedStrike.times(normalCdf(d2))), delta)
  }
  const delta = normalCdf(d1).minus(ONE)
  return quote(discountedStrike.times(normalCdf(d2.negated())).plus(spot.times(delta)), delta)
}

function quote(premium: Decimal, delta: Decimal): OptionQuote {
  // the series leaves a last-digit residue below zero for a worthless option
  const value = premium.isNegative() ? ZERO : premium
  return {
    premium: value.toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_HALF_UP),
    delta: delta.toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_HALF_UP),
  }
}

/** feeType of an option coin whose feeValue is a percent of the premium; any other type is usdt per order. */
export const OPTION_FEE_PERCENT = 1

export interface OptionOrderCost {
  /** quantity × premium, rounded up to PREMIUM_PLACES */
  cost: Decimal
  fee: Decimal
  /** what the buyer pays, and the most the buyer can lose */
  total: Decimal
}

/** What buying `quantity` units at `premium` each costs on a coin with this fee. */
export function optionOrderCost(
  quantity: Decimal.Value,
  premium: Decimal.Value,
  coin: { feeType: number; feeValue: string },
): OptionOrderCost {
  // rounded up: the exchange never charges less than the premium it sold
  const cost = dec(quantity).times(dec(premium)).toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_UP)
  const fee = (
    coin.feeType === OPTION_FEE_PERCENT ? cost.times(dec(coin.feeValue)).dividedBy(100) : dec(coin.feeValue)
  ).toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_UP)
  return { cost, fee, total: cost.plus(fee) }
}

/** The spot price at expiry at which the buyer gets back exactly what the order cost, fee included. */
export function breakEven(kind: OptionKind, strike: Decimal.Value, totalPerUnit: Decimal.Value): Decimal {
  const moved = kind === 'call' ? dec(strike).plus(dec(totalPerUnit)) : dec(strike).minus(dec(totalPerUnit))
  return moved.isNegative() ? ZERO : moved
}
