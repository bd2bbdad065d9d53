import { Decimal } from 'decimal.js'
import { toDecimal } from '@tradegate/shared'

// Money helpers the sandbox needs on top of shared/format.ts.

export const ZERO = toDecimal(0)

/** Plain decimal notation, never exponent form, so every client can read it. */
export function text(value: Decimal): string {
  return value.toFixed()
}

/** Rounds down, so a user is never paid a fraction the house did not give. */
export function truncate(value: Decimal, places: number): Decimal {
  return value.toDecimalPlaces(places, Decimal.ROUND_DOWN)
}

/** Places used for amounts the sandbox derives by division (exchange, PnL). */
export const AMOUNT_PLACES = 8
