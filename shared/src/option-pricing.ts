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
  /** change of delta per unit change of the spot */
  gamma: Decimal
  /** change of the premium per calendar day that passes, all else equal (negative: time decay) */
  theta: Decimal
  /** change of the premium per one percentage point of volatility */
  vega: Decimal
}

/** Places greeks are kept in; they are display figures, never charged. */
export const GREEK_PLACES = 8

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
  const density = d1.times(d1).dividedBy(TWO).negated().exp().times(INV_SQRT_2PI)
  // theta's decay term, per year; the rate term is added below by side
  const decay = spot.times(density).times(volatility).dividedBy(years.sqrt().times(TWO)).negated()
  const shared = {
    gamma: density.dividedBy(spot.times(spread)),
    vega: spot.times(density).times(years.sqrt()).dividedBy(100),
  }
  if (call) {
    const delta = normalCdf(d1)
    const carry = discountedStrike.times(normalCdf(d2))
    const theta = decay.minus(rate.times(carry)).dividedBy(365)
    return quote(spot.times(delta).minus(carry), delta, { ...shared, theta })
  }
  const delta = normalCdf(d1).minus(ONE)
  const carry = discountedStrike.times(normalCdf(d2.negated()))
  const theta = decay.plus(rate.times(carry)).dividedBy(365)
  return quote(carry.plus(spot.times(delta)), delta, { ...shared, theta })
}

/** At expiry or with no volatility the premium no longer bends with price, time or volatility. */
const FLAT = { gamma: ZERO, theta: ZERO, vega: ZERO }

function quote(
  premium: Decimal,
  delta: Decimal,
  bends: Pick<OptionQuote, 'gamma' | 'theta' | 'vega'> = FLAT,
): OptionQuote {
  // the series leaves a last-digit residue below zero for a worthless option
  const value = premium.isNegative() ? ZERO : premium
  const rounded = (figure: Decimal) => figure.toDecimalPlaces(GREEK_PLACES, Decimal.ROUND_HALF_UP)
  return {
    premium: value.toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_HALF_UP),
    delta: rounded(delta),
    gamma: rounded(bends.gamma),
    theta: rounded(bends.theta),
    vega: rounded(bends.vega),
  }
}

/**
 * What the house pays per unit to buy an option back before expiry: the Black-Scholes premium less
 * OPTION_BID_SPREAD of it, rounded down. Buying is at the premium itself (the ask), so a round trip
 * costs the spread plus both fees.
 */
export const OPTION_BID_SPREAD = '0.03'

export function optionBid(premium: Decimal.Value): Decimal {
  const value = dec(premium)
  return value.minus(value.times(OPTION_BID_SPREAD)).toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_DOWN)
}

/** Volatilities the implied-volatility search stays between: 0.1 % to 1000 % a year. */
const VOLATILITY_FLOOR = new OptionDecimal('0.001')
const VOLATILITY_CEILING = new OptionDecimal(10)

/**
 * The volatility at which Black-Scholes gives `price`, to 4 places (0.01 %), or null when no volatility
 * in 0.1 %–1000 % does (a price below the discounted intrinsic value or above the spot, or an expired
 * option). Newton's steps from `guess` (default 50 %), kept inside a bracket that bisects whenever a
 * step would leave it, so it always converges; from a near guess in two or three steps.
 */
export function impliedVolatility(
  inputs: Omit<OptionInputs, 'volatility'> & { price: Decimal.Value; guess?: Decimal.Value },
): Decimal | null {
  const target = dec(inputs.price)
  if (!dec(inputs.years).greaterThan(0) || !target.greaterThan(0)) return null
  const at = (volatility: Decimal) => blackScholes({ ...inputs, volatility })
  let low = VOLATILITY_FLOOR
  let high = VOLATILITY_CEILING
  const closeEnough = new OptionDecimal('0.000001')
  let volatility = dec(inputs.guess ?? '0.5')
  if (!volatility.greaterThan(low) || !volatility.lessThan(high)) volatility = low.plus(high).dividedBy(TWO)
  for (let step = 0; step < 100; step++) {
    const { premium, vega } = at(volatility)
    const miss = premium.minus(target)
    if (miss.isZero()) break
    if (miss.isPositive()) high = volatility
    else low = volatility
    // vega is per percentage point, the step is in fractions
    const newton = vega.isZero() ? null : volatility.minus(miss.dividedBy(vega.times(100)))
    const inside = newton !== null && newton.greaterThan(low) && newton.lessThan(high)
    const next = inside ? newton : low.plus(high).dividedBy(TWO)
    const moved = next.minus(volatility).abs()
    volatility = next
    if (moved.lessThan(closeEnough) || high.minus(low).lessThan(closeEnough)) break
  }
  // a price out of reach drives the search onto an end of the range
  const pinned = volatility.minus(VOLATILITY_FLOOR).lessThan(closeEnough.times(2))
  if (pinned || VOLATILITY_CEILING.minus(volatility).lessThan(closeEnough.times(2))) return null
  return volatility.toDecimalPlaces(4, Decimal.ROUND_HALF_UP)
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

export interface OptionSaleProceeds {
  /** quantity × bid, rounded down to PREMIUM_PLACES */
  proceeds: Decimal
  fee: Decimal
  /** what the seller receives: proceeds less the fee, never below zero */
  net: Decimal
}

/** What selling `quantity` units back at `bid` each pays on a coin with this fee (the buying fee's rule). */
export function optionSaleProceeds(
  quantity: Decimal.Value,
  bid: Decimal.Value,
  coin: { feeType: number; feeValue: string },
): OptionSaleProceeds {
  // rounded down: the exchange never pays more than the bid it quoted
  const proceeds = dec(quantity).times(dec(bid)).toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_DOWN)
  const fee = Decimal.min(
    proceeds,
    coin.feeType === OPTION_FEE_PERCENT
      ? proceeds.times(dec(coin.feeValue)).dividedBy(100)
      : dec(coin.feeValue),
  ).toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_UP)
  return { proceeds, fee, net: proceeds.minus(fee) }
}
