import { Decimal } from 'decimal.js'
import { toDecimal } from './format'

// The one flash-exchange formula: what a customer pays, is charged and receives at a quoted price.
// The sandbox settles with it and the client shows its estimate with it, so the two never differ.

/** How long a quoted exchange price holds; past it the client asks for a new quote. */
export const EXCHANGE_QUOTE_SECONDS = 10

/** Significant digits a rate is shown with at least, so 0.0002857 never reads as 0.00028. */
export const RATE_SIGNIFICANT_DIGITS = 6

export interface ExchangeFigures {
  /** the fee, in the coin received, cut down to that coin's places */
  fee: Decimal
  /** what arrives: the converted amount cut to the received coin's places, less the fee */
  received: Decimal
  /**
   * everything converted that does not arrive, exactly: the fee and what cutting to the received
   * coin's places leaves behind (100 USDT to BTC at 5 places kept 0.0000068 BTC besides a fee that
   * itself cut to 0.00000), so a screen can show it whole
   */
  kept: Decimal
}

/**
 * Paying `paid` at `price` (units of the received coin per unit paid) with `feeRate` (a fraction,
 * e.g. 0.002): the fee is taken from the converted amount, and both are cut down (never up) to the
 * received coin's `places`, so no one is credited a fraction the house did not give.
 */
export function exchangeFigures(
  paid: unknown,
  price: unknown,
  feeRate: unknown,
  places: number,
): ExchangeFigures {
  const converted = toDecimal(paid).times(toDecimal(price))
  const fee = converted.times(toDecimal(feeRate)).toDecimalPlaces(places, Decimal.ROUND_DOWN)
  const received = Decimal.max(converted.toDecimalPlaces(places, Decimal.ROUND_DOWN).minus(fee), 0)
  return { fee, received, kept: converted.minus(received) }
}

/**
 * A rate as shown: cut down (never up) to RATE_SIGNIFICANT_DIGITS significant digits, or to the received
 * coin's `places` when those are more, zeros kept, so every rate reads at the same precision.
 */
export function rateText(rate: unknown, places: number): string {
  const value = toDecimal(rate)
  if (value.isZero()) return '0'
  // e is the exponent of the leading digit: 2.857e-4 has e = -4, so 6 digits need 9 places
  const significantPlaces = Math.max(0, RATE_SIGNIFICANT_DIGITS - 1 - value.e)
  const shown = Math.max(places, significantPlaces)
  return value.toFixed(shown, Decimal.ROUND_DOWN)
}
