import { Decimal } from 'decimal.js'
import { toDecimal, truncateToPrecision, withdrawalFee } from '@tradegate/shared'

export interface WithdrawQuote {
  fee: string
  receive: string
}

/**
 * What a withdrawal of `amount` costs and delivers, by the fee formula the exchange charges with:
 * `ratio` percent of the amount cut to the coin's `places`, nothing while a free withdrawal is left.
 */
export function quoteWithdrawal(
  amount: string,
  ratio: string,
  freeLeft: number,
  places: number,
): WithdrawQuote {
  const gross = toDecimal(amount)
  const fee = withdrawalFee(gross, ratio, freeLeft, places)
  return { fee: fee.toFixed(), receive: Decimal.max(gross.minus(fee), 0).toFixed() }
}

/** The most "Max" may fill in: the available balance at the coin's precision, capped by the channel's maximum. */
export function maxWithdrawal(available: string, channelMax: string, places: number): string {
  return Decimal.min(truncateToPrecision(available, places), toDecimal(channelMax)).toFixed()
}
