import { Decimal } from 'decimal.js'
import { toDecimal } from './format'

// The money of an order, computed the same way by the order form's preview and by the exchange's
// fill, so the numbers a user is shown are the numbers they get.
//
// One rounding rule: quantities and prices are taken as given (their places are checked where they
// are entered), a product of the two (an order's value) is exact, and every amount derived through a
// rate or a division (fee, margin, PnL, liquidation price, a share of a margin) is truncated toward
// zero to MONEY_PLACES decimals. Nothing is rounded up, so no side ever promises or pays a fraction
// the other did not have.

export const MONEY_PLACES = 8

/** a position's side: long gains when the price rises */
export type Direction = 'long' | 'short'

/** Truncates toward zero to MONEY_PLACES decimals. */
export function truncateMoney(value: unknown): Decimal {
  return toDecimal(value).toDecimalPlaces(MONEY_PLACES, Decimal.ROUND_DOWN)
}

/** Exact quotient, or 0 for a zero or empty divisor, so a missing figure never shows as Infinity. */
function ratio(dividend: Decimal, divisor: unknown): Decimal {
  const denominator = toDecimal(divisor)
  return denominator.isZero() ? toDecimal(0) : dividend.dividedBy(denominator)
}

// ---- spot ----

export interface SpotTotals {
  /** amount × price, in the quote coin */
  value: Decimal
  fee: Decimal
  /** what a buy pays: value + fee */
  cost: Decimal
  /** what a sell receives: value − fee */
  proceeds: Decimal
}

/** The value of a spot trade, its fee (taken in the quote coin) and what each side moves. */
export function spotTotals(amount: unknown, price: unknown, feeRate: unknown): SpotTotals {
  const value = toDecimal(amount).times(toDecimal(price))
  const fee = tradeFee(value, feeRate)
  return { value, fee, cost: value.plus(fee), proceeds: value.minus(fee) }
}

/** The fee on a trade's value (a spot trade in the quote coin, a contract's opening or closing). */
export function tradeFee(value: unknown, rate: unknown): Decimal {
  return truncateMoney(toDecimal(value).times(toDecimal(rate)))
}

/**
 * The largest amount, at the coin's precision, that a balance can trade at a price: a sell offers the
 * coin balance; a buy spends the quote balance with the fee on top, so its cost never exceeds it.
 */
export function spotMaxAmount(
  side: 'buy' | 'sell',
  available: unknown,
  price: unknown,
  feeRate: unknown,
  coinPrecision: number,
): Decimal {
  const balance = toDecimal(available)
  if (!balance.greaterThan(0)) return toDecimal(0)
  if (side === 'sell') return balance.toDecimalPlaces(coinPrecision, Decimal.ROUND_DOWN)
  const unitCost = toDecimal(price).times(toDecimal(feeRate).plus(1))
  if (!unitCost.greaterThan(0)) return toDecimal(0)
  const amount = balance.dividedBy(unitCost).toDecimalPlaces(coinPrecision, Decimal.ROUND_DOWN)
  // the fee is truncated, so one more unit at the last place may still be affordable
  const next = amount.plus(toDecimal(1).dividedBy(toDecimal(10).pow(coinPrecision)))
  return spotTotals(next, price, feeRate).cost.lessThanOrEqualTo(balance) ? next : amount
}

// ---- leveraged contracts ----

/** What a contract pair states: usdt of position value per share and the fee rates. */
export interface ContractTerms {
  shareNumber: unknown
  openFee: unknown
  closeFee: unknown
}

export interface ContractOpening {
  /** shares × usdt per share */
  value: Decimal
  /** value / leverage */
  margin: Decimal
  openFee: Decimal
  /** the fee closing the whole position will take */
  closeFee: Decimal
  /** margin and open fee: what leaves the available balance */
  cost: Decimal
  liquidationPrice: Decimal
}

/** The margin, fees and liquidation price of opening `shares` at `price`. */
export function contractOpening(
  shares: unknown,
  leverage: unknown,
  price: unknown,
  direction: Direction,
  terms: ContractTerms,
): ContractOpening {
  const value = toDecimal(shares).times(toDecimal(terms.shareNumber))
  const margin = truncateMoney(ratio(value, leverage))
  const openFee = tradeFee(value, terms.openFee)
  return {
    value,
    margin,
    openFee,
    closeFee: tradeFee(value, terms.closeFee),
    cost: margin.plus(openFee),
    liquidationPrice: liquidationPrice(price, margin, value, direction),
  }
}

/**
 * The price at which the loss equals the margin: open × (value ∓ margin) / value, 0 when a long
 * could only lose its margin below zero.
 */
export function liquidationPrice(
  openPrice: unknown,
  margin: unknown,
  value: unknown,
  direction: Direction,
): Decimal {
  const signedMargin = direction === 'long' ? toDecimal(margin).negated() : toDecimal(margin)
  const price = truncateMoney(ratio(toDecimal(openPrice).times(toDecimal(value).plus(signedMargin)), value))
  return price.greaterThan(0) ? price : toDecimal(0)
}

/** Profit or loss at a price: value × (price − open) / open, negated for a short. */
export function contractPnl(
  direction: Direction,
  value: unknown,
  openPrice: unknown,
  price: unknown,
): Decimal {
  const move = toDecimal(price).minus(toDecimal(openPrice))
  const pnl = truncateMoney(ratio(toDecimal(value).times(move), openPrice))
  return direction === 'long' ? pnl : pnl.negated()
}

export interface ContractSettlement {
  /** the PnL booked: never a loss beyond the margin */
  pnl: Decimal
  /** the close fee taken, never more than what is left of the margin */
  fee: Decimal
  /** what goes back to the available balance */
  payout: Decimal
  /** the loss ate the whole margin */
  liquidated: boolean
}

/** Closing a position (or some of its shares) that holds `margin` with this PnL and close fee. */
export function contractSettlement(margin: unknown, pnl: unknown, closeFee: unknown): ContractSettlement {
  const held = toDecimal(margin)
  const equity = held.plus(toDecimal(pnl))
  if (!equity.greaterThan(0)) {
    return { pnl: held.negated(), fee: toDecimal(0), payout: toDecimal(0), liquidated: true }
  }
  const fullFee = toDecimal(closeFee)
  const fee = fullFee.lessThan(equity) ? fullFee : equity
  return { pnl: toDecimal(pnl), fee, payout: equity.minus(fee), liquidated: false }
}

/** The part of a position's margin that `closing` of its `shares` carry. */
export function marginShare(margin: unknown, shares: unknown, closing: unknown): Decimal {
  if (toDecimal(closing).greaterThanOrEqualTo(toDecimal(shares))) return toDecimal(margin)
  return truncateMoney(ratio(toDecimal(margin).times(toDecimal(closing)), shares))
}

/** PnL as a percent of margin (return on equity). */
export function pnlPercent(pnl: unknown, margin: unknown): Decimal {
  return ratio(toDecimal(pnl).times(100), margin)
}

/**
 * The entry price of a position after a fill of `addedValue` at `fillPrice` joins one of `value`
 * opened at `openPrice`: the average price of the coins both hold (value over coins, each fill's coins
 * being its value over its price), so the merged position's PnL at any price is the sum of the two.
 * Truncated to MONEY_PLACES like every derived amount.
 */
export function mergedEntryPrice(
  value: unknown,
  openPrice: unknown,
  addedValue: unknown,
  fillPrice: unknown,
): Decimal {
  const coins = ratio(toDecimal(value), openPrice).plus(ratio(toDecimal(addedValue), fillPrice))
  return truncateMoney(ratio(toDecimal(value).plus(toDecimal(addedValue)), coins))
}

/**
 * What a position pays (negative) or receives at a funding time: its value at the mark price
 * (coins × mark) times the rate, paid by longs and received by shorts while the rate is positive.
 */
export function fundingPayment(
  direction: Direction,
  value: unknown,
  openPrice: unknown,
  markPrice: unknown,
  rate: unknown,
): Decimal {
  const payment = truncateMoney(
    ratio(toDecimal(value).times(toDecimal(markPrice)).times(toDecimal(rate)), openPrice),
  )
  return direction === 'long' ? payment.negated() : payment
}
