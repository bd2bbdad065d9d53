import { Decimal } from 'decimal.js'
import { formatPercent, formatPrice, toDecimal } from './format'

// The one display rule: how every figure a screen shows is brought to its places. Each kind of
// figure has one scale and one rounding mode (the README's table "Figures on screen" repeats it),
// and every screen formats through these functions (the client's useFormatters binds them to the
// reader's language; web/test/unit/display-paths.test.ts fails on a figure formatted another way).
//
// Figures are rounded half away from zero, not cut, so what is shown adds up by hand: a PnL of
// -0.169278 shows -0.1693, an entry of 150.6159 at a tick of 0.01 shows 150.62. Balances alone are
// cut: a user is never shown more than they hold, and Max fills exactly the digits on screen.

/** Places of a profit or loss in the quote coin (USDT). */
export const PNL_PLACES = 4
/** Places of a fee in the coin it is taken in. */
export const FEE_PLACES = 4
/** Places of a value in the quote coin: an order's total, a position's value, a holding's worth. */
export const VALUE_PLACES = 2
/** Places of quote coin paid or received: margin, cost, premium, payout, proceeds, a funding payment. */
export const CASH_PLACES = 4
/** Places of a rate in percent (funding, fee rate), which live in hundredths of a percent. */
export const RATE_PLACES = 4
/** Places of an option's delta, which lies between -1 and 1, so a column of deltas lines up. */
export const DELTA_PLACES = 4

export type FigureKind =
  | 'balance'
  | 'price'
  | 'quantity'
  | 'value'
  | 'cash'
  | 'pnl'
  | 'fee'
  | 'percent'
  | 'rate'
  | 'feeRate'
  | 'delta'

type Rounding = typeof Decimal.ROUND_DOWN | typeof Decimal.ROUND_HALF_UP

/** Each kind of figure: the places it is shown to and how it gets there. */
export const FIGURE_RULES: Readonly<Record<FigureKind, { scale: string; rounding: Rounding }>> =
  Object.freeze({
    balance: { scale: "the coin's places", rounding: Decimal.ROUND_DOWN },
    price: {
      scale: "the pair's tick places (without a pair: by magnitude)",
      rounding: Decimal.ROUND_HALF_UP,
    },
    quantity: { scale: "the pair's lot places", rounding: Decimal.ROUND_HALF_UP },
    value: { scale: `${VALUE_PLACES} places`, rounding: Decimal.ROUND_HALF_UP },
    cash: { scale: `${CASH_PLACES} places`, rounding: Decimal.ROUND_HALF_UP },
    pnl: { scale: `${PNL_PLACES} places`, rounding: Decimal.ROUND_HALF_UP },
    fee: { scale: `${FEE_PLACES} places`, rounding: Decimal.ROUND_HALF_UP },
    percent: { scale: '2 places (a move under 0.01 shows ±0.01)', rounding: Decimal.ROUND_HALF_UP },
    rate: { scale: `${RATE_PLACES} places of a percent`, rounding: Decimal.ROUND_HALF_UP },
    feeRate: {
      scale: `up to ${RATE_PLACES} places of a percent, trailing zeros dropped`,
      rounding: Decimal.ROUND_HALF_UP,
    },
    delta: { scale: `${DELTA_PLACES} places`, rounding: Decimal.ROUND_HALF_UP },
  })

/** `value` at `places` by `rounding`, with a rounded-away negative shown as plain 0 (never "-0.00"). */
function fixed(value: unknown, places: number, rounding: Rounding): string {
  const shown = toDecimal(value).toDecimalPlaces(places, rounding)
  return (shown.isZero() ? shown.abs() : shown).toFixed(places)
}

/** A balance (available, held, margin, stake) cut to the coin's places: never more than is held. */
export function showBalance(value: unknown, places: number): string {
  return fixed(value, places, FIGURE_RULES.balance.rounding)
}

/** A price at the pair's tick places, rounded; without a pair's places, by the magnitude rule. */
export function showPrice(value: unknown, tickPlaces?: number): string {
  if (tickPlaces === undefined) return formatPrice(value)
  return fixed(value, tickPlaces, FIGURE_RULES.price.rounding)
}

/** A quantity (coins, shares, volume) at the pair's lot places, rounded. */
export function showQuantity(value: unknown, lotPlaces: number): string {
  return fixed(value, lotPlaces, FIGURE_RULES.quantity.rounding)
}

/** A value in the quote coin (total, position value, worth), rounded to VALUE_PLACES. */
export function showValue(value: unknown): string {
  return fixed(value, VALUE_PLACES, FIGURE_RULES.value.rounding)
}

/** Quote coin paid or received (margin, cost, premium, payout), rounded to CASH_PLACES. */
export function showCash(value: unknown): string {
  return fixed(value, CASH_PLACES, FIGURE_RULES.cash.rounding)
}

/** A profit or loss, rounded to PNL_PLACES; its sign is the sign of what is shown. */
export function showPnl(value: unknown): string {
  return fixed(value, PNL_PLACES, FIGURE_RULES.pnl.rounding)
}

/** A fee, rounded to FEE_PLACES. */
export function showFee(value: unknown): string {
  return fixed(value, FEE_PLACES, FIGURE_RULES.fee.rounding)
}

/** An option's delta, rounded to DELTA_PLACES. */
export function showDelta(value: unknown): string {
  return fixed(value, DELTA_PLACES, FIGURE_RULES.delta.rounding)
}

/** A percentage (change, rate, return), rounded to 2 places, a tiny real move lifted to ±0.01. */
export function showPercent(value: unknown): string {
  return formatPercent(value)
}

/**
 * A rate that moves (funding) in percent to RATE_PLACES, rounded: 0.0100 for one hundredth of a
 * percent. Its places stay fixed so a rate that changes every few seconds does not change width.
 */
export function showRate(percent: unknown): string {
  return fixed(percent, RATE_PLACES, FIGURE_RULES.rate.rounding)
}

/**
 * A rate the exchange states as a term (a fee rate) in percent, as it is stated: rounded to
 * RATE_PLACES with trailing zeros dropped, so a fee of 0.2% reads 0.2%, not 0.2000%, and 0.075%
 * keeps its digits.
 */
export function showFeeRate(percent: unknown): string {
  const shown = toDecimal(percent).toDecimalPlaces(RATE_PLACES, FIGURE_RULES.feeRate.rounding)
  return (shown.isZero() ? shown.abs() : shown).toFixed()
}
