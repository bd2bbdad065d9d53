import { Decimal } from 'decimal.js'
import {
  PREMIUM_PLACES,
  blackScholes,
  impliedVolatility,
  optionBid,
  optionSaleProceeds,
  showDelta,
  toDecimal,
  yearsUntil,
  type OptionChain,
  type OptionPosition,
  type OptionQuote,
  type OptionSaleProceeds,
} from '@tradegate/shared'

// What the option screens compute from a chain and the live price: quotes, marks, limits, countdowns.

/**
 * The default limit is the premium the option would have if the price moved this far against the buyer:
 * a short option's premium swings by many percent with a small move of the price.
 */
export const LIMIT_MOVE = '0.005'

export type PricingInputs = Pick<OptionChain, 'volatility' | 'rate'>

/** Which option: its kind, strike and expiry. */
export type OptionTerms = Pick<OptionPosition, 'kind' | 'strike' | 'expiresAt'>

/** What pricing one option at `spot` takes, the volatility aside (a search for it starts from the chain's). */
function pricingOf(option: OptionTerms, spot: string, pricing: PricingInputs, now: number) {
  const { kind, strike, expiresAt } = option
  return { kind, spot, strike, years: yearsUntil(expiresAt, now), rate: pricing.rate }
}

/** The spot moved LIMIT_MOVE up or down: where the default limits price an option. */
function movedSpot(spot: string, direction: 'up' | 'down'): string {
  const factor = direction === 'up' ? toDecimal(1).plus(LIMIT_MOVE) : toDecimal(1).minus(LIMIT_MOVE)
  return toDecimal(spot).times(factor).toFixed()
}

/** The live quote of one option, or null while there is no price to quote from. */
export function quoteOf(
  option: OptionTerms,
  spot: string | undefined,
  pricing: PricingInputs,
  now: number,
): OptionQuote | null {
  if (!spot || !toDecimal(spot).greaterThan(0)) return null
  return blackScholes({ ...pricingOf(option, spot, pricing, now), volatility: pricing.volatility })
}

/** The strike nearest the spot: the at-the-money row. */
export function atTheMoney(strikes: readonly string[], spot: string | undefined): string | null {
  if (!spot || strikes.length === 0) return null
  let best = strikes[0]!
  for (const strike of strikes) {
    if (toDecimal(strike).minus(spot).abs().lessThan(toDecimal(best).minus(spot).abs())) best = strike
  }
  return best
}

/** The limit an order carries unless the user types one, rounded up; null while there is no price. */
export function defaultLimit(
  option: OptionTerms,
  spot: string | undefined,
  pricing: PricingInputs,
  now: number,
): string | null {
  if (!spot) return null
  // against the buyer: a call dearer with the price up, a put with it down
  const moved = movedSpot(spot, option.kind === 'call' ? 'up' : 'down')
  const quote = quoteOf(option, moved, pricing, now)
  return quote ? quote.premium.toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_UP).toFixed() : null
}

/** What an open position is worth at the live premium, and its profit after what was paid. */
export function markOf(
  position: OptionPosition,
  spot: string | undefined,
  pricing: PricingInputs | undefined,
  now: number,
): { value: Decimal; pnl: Decimal } | null {
  if (!pricing) return null
  const quote = quoteOf(position, spot, pricing, now)
  if (!quote) return null
  const value = quote.premium.times(position.quantity)
  return { value, pnl: value.minus(position.cost).minus(position.fee) }
}

/** The bid of a quote: what the exchange pays a unit to buy the option back now. */
export function bidOf(quote: OptionQuote): Decimal {
  return optionBid(quote.premium)
}

/** Implied volatilities of the bid and the ask of one option (null where no volatility gives the price). */
export function impliedOf(
  option: OptionTerms,
  spot: string | undefined,
  pricing: PricingInputs,
  now: number,
): { bid: Decimal | null; ask: Decimal | null } | null {
  const quote = quoteOf(option, spot, pricing, now)
  if (!quote || !spot) return null
  const inputs = pricingOf(option, spot, pricing, now)
  // the chain's volatility is where both prices come from, so the search starts beside them
  const solve = (price: Decimal) => impliedVolatility({ ...inputs, price, guess: pricing.volatility })
  return { bid: solve(bidOf(quote)), ask: solve(quote.premium) }
}

/**
 * The least per unit a sale accepts unless the user types one: the bid the option would have if the
 * price moved LIMIT_MOVE against the holder, rounded down; null while there is no price.
 */
export function defaultSaleFloor(
  position: OptionTerms,
  spot: string | undefined,
  pricing: PricingInputs,
  now: number,
): string | null {
  if (!spot) return null
  // against the holder: a call cheaper with the price down, a put with it up
  const moved = movedSpot(spot, position.kind === 'call' ? 'down' : 'up')
  const quote = quoteOf(position, moved, pricing, now)
  return quote ? bidOf(quote).toDecimalPlaces(PREMIUM_PLACES, Decimal.ROUND_DOWN).toFixed() : null
}

export type Greek = 'delta' | 'gamma' | 'theta' | 'vega'

/**
 * A greek for display: a delta by the display rule (`showDelta`); gamma, theta and vega, whose size
 * moves by orders of magnitude with the time left, at four significant digits, without an exponent.
 */
export function greekText(value: Decimal, greek: Greek): string {
  if (greek === 'delta') return showDelta(value)
  return value.isZero() ? '0' : value.toSignificantDigits(4).toFixed()
}

/** The units theta is shown per, longest first, with their length in milliseconds. */
export const THETA_UNITS = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
] as const
export type ThetaUnit = (typeof THETA_UNITS)[number][0]

/**
 * Theta per the longest unit that fits in the time left: a day's decay of an option with minutes to
 * live is a figure it can never reach (−14,090 a day on a 129 USDT premium 7 minutes out), while its
 * decay per minute reads as what the next minute costs. `perDay` is the model's theta per calendar day.
 */
export function thetaPerUnit(perDay: Decimal, msLeft: number): { value: Decimal; unit: ThetaUnit } {
  // under a second, still per second: the shortest unit there is
  const [unit, length] = THETA_UNITS.find(([, ms]) => ms <= msLeft) ?? THETA_UNITS[3]
  return { value: perDay.times(length).dividedBy(THETA_UNITS[0][1]), unit }
}

/** What selling an open position back now pays: the bid per unit and the proceeds less the fee. */
export function saleOf(
  position: OptionPosition,
  spot: string | undefined,
  chain: PricingInputs & Pick<OptionChain, 'feeType' | 'feeValue'>,
  now: number,
): (OptionSaleProceeds & { bid: Decimal }) | null {
  const quote = quoteOf(position, spot, chain, now)
  if (!quote) return null
  const bid = bidOf(quote)
  return { bid, ...optionSaleProceeds(position.quantity, bid, chain) }
}

/**
 * How a closed position ended: sold back to the house before expiry (the sandbox records the bid it
 * fetched in salePrice) or settled by itself at expiry. The API lists both as 'settled'.
 */
export function closedBy(position: OptionPosition): 'sold' | 'settled' {
  return position.salePrice === undefined ? 'settled' : 'sold'
}

/** Profit of a settled position: the payout less premium and fee. */
export function settledPnl(position: OptionPosition): Decimal {
  return toDecimal(position.payout).minus(position.cost).minus(position.fee)
}

/** 3_725_000 ms -> 01:02:05; never negative. Expiries are at most a day away, so hours suffice. */
export function formatTimeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000))
  const parts = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
  return parts.map((part) => String(part).padStart(2, '0')).join(':')
}
