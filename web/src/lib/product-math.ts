import { mul, toDecimal, truncateToPrecision, type Holding, type Product } from '@tradegate/shared'

// What a fixed-term product pays: the figures the subscribe form and the redeem step show, by the
// rules the exchange states with each product.

export const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

/** Interest over the whole term, cut to the coin's places as the exchange pays it. */
export function expectedInterest(
  product: Pick<Product, 'dailyRate' | 'days'>,
  amount: string,
  places: number,
): string {
  return truncateToPrecision(mul(mul(amount, product.dailyRate), product.days), places).toFixed()
}

/** The day a subscription made at `now` matures. */
export function maturityOf(product: Pick<Product, 'days'>, now: number): number {
  return now + product.days * DAY_MS
}

export interface RedeemQuote {
  /** the stake kept back; "0" for a product without a penalty */
  penalty: string
  /** interest paid with the stake: what was earned so far when there is no penalty, else none */
  interest: string
  receive: string
  /** when the payout arrives */
  arrivesAt: number
}

/** What redeeming a running holding now pays back, by its product's rule. */
export function quoteRedeem(
  holding: Pick<Holding, 'amount' | 'earned'>,
  product: Pick<Product, 'redeemPenalty' | 'settleHours'>,
  places: number,
  now: number,
): RedeemQuote {
  const penalty = truncateToPrecision(mul(holding.amount, product.redeemPenalty), places)
  const interest = penalty.isZero() ? toDecimal(holding.earned) : toDecimal(0)
  return {
    penalty: penalty.toFixed(),
    interest: interest.toFixed(),
    receive: toDecimal(holding.amount).minus(penalty).plus(interest).toFixed(),
    arrivesAt: now + product.settleHours * HOUR_MS,
  }
}
