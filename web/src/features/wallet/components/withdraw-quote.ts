import { Decimal } from 'decimal.js'
import { toDecimal } from '@tradegate/shared'

/** Places the fee is cut to, rounded down as the cashier does. */
const FEE_PLACES = 8

export interface WithdrawQuote {
  fee: string
  receive: string
}

/**
 * What a withdrawal of `amount` costs and delivers: the fee is `ratio` percent of the amount, taken
 * out of it, unless a free withdrawal is left today.
 */
export function quoteWithdrawal(amount: string, ratio: string, freeLeft: number): WithdrawQuote {
  const gross = toDecimal(amount)
  const fee =
    freeLeft > 0
      ? toDecimal(0)
      : gross.times(ratio).dividedBy(100).toDecimalPlaces(FEE_PLACES, Decimal.ROUND_DOWN)
  return { fee: fee.toFixed(), receive: Decimal.max(gross.minus(fee), 0).toFixed() }
}

/** The most "Max" may fill in: the whole available balance, capped by the channel's maximum. */
export function maxWithdrawal(available: string, channelMax: string): string {
  return Decimal.min(toDecimal(available), toDecimal(channelMax)).toFixed()
}
