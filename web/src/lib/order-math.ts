import type { Decimal } from 'decimal.js'
import {
  MAX_AMOUNT_DECIMALS,
  MAX_AMOUNT_WHOLE_DIGITS,
  contractOpening,
  contractPnl,
  mul,
  pnlPercent,
  spotMaxAmount,
  spotTotals,
  type Balance,
  type ContractOpening,
  type ContractPair,
  type SpotPair,
} from '@tradegate/shared'

// The numbers order forms show before anything is sent. The money itself comes from the shared
// trade math the exchange's fills use, so a preview equals the fill at the same price.

/** Finest places any amount may have, whatever its coin. */
export const MAX_TYPED_DECIMALS = MAX_AMOUNT_DECIMALS

/**
 * The one sanitiser of typed amounts: keeps digits and one decimal point (a comma counts as one), at
 * most `places` decimals; anything else typed (signs, letters, exponents) is dropped.
 */
export function sanitiseAmount(text: string, places: number = MAX_TYPED_DECIMALS): string {
  const cleaned = text.replace(/,/g, '.').replace(/[^\d.]/g, '')
  const [whole = '', ...rest] = cleaned.split('.')
  if (rest.length === 0) return whole
  if (places <= 0) return whole
  return `${whole}.${rest.join('').slice(0, places)}`
}

export type TypedAmountProblem = 'amountDecimals' | 'amountWholeDigits'

/**
 * Why a sanitised amount cannot be taken as typed: more decimals than the coin is counted in, or
 * more digits before the point than any amount has. A field refuses such text and says so, rather
 * than cutting it where the user may not look.
 */
export function typedAmountProblem(text: string, places: number): TypedAmountProblem | null {
  const [whole = '', decimals = ''] = text.split('.')
  if (decimals.length > places) return 'amountDecimals'
  if (whole.replace(/^0+(?=\d)/, '').length > MAX_AMOUNT_WHOLE_DIGITS) return 'amountWholeDigits'
  return null
}

/** What one coin holds in one account, 0 when the account has none. */
export function availableOf(
  balances: readonly Balance[] | undefined,
  coin: string,
  account: Balance['account'],
): string {
  const row = balances?.find((balance) => balance.account === account && balance.coin.toLowerCase() === coin)
  return row?.available ?? '0'
}

export interface SpotEstimate {
  total: Decimal
  fee: Decimal
}

/** Order value in the quote coin and the fee on it, as the exchange computes them. */
export function spotEstimate(amount: string, price: string, pair: Pick<SpotPair, 'feeRate'>): SpotEstimate {
  const { value, fee } = spotTotals(amount, price, pair.feeRate)
  return { total: value, fee }
}

/**
 * The quantity a slider percentage buys or sells: a buy spends that share of the quote balance with
 * the fee on top, a sell offers that share of the coin balance.
 */
export function spotAmountForPercent(
  percent: number,
  side: 'buy' | 'sell',
  available: string,
  price: string,
  pair: Pick<SpotPair, 'feeRate' | 'coinPrecision'>,
): string {
  const share = mul(available, percent).div(100)
  return spotMaxAmount(side, share, price, pair.feeRate, pair.coinPrecision).toFixed()
}

export function leverageChoices(pair: Pick<ContractPair, 'leverage'>): number[] {
  return pair.leverage
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((value) => Number.isInteger(value) && value > 0)
}

export type ContractPreview = ContractOpening

/** Position value is shares × usdt per share; the position is liquidated when its loss eats the margin. */
export function contractPreview(
  shares: string,
  leverage: number,
  price: string,
  direction: 'long' | 'short',
  pair: Pick<ContractPair, 'shareNumber' | 'openFee' | 'closeFee'>,
): ContractPreview {
  return contractOpening(shares, leverage, price, direction, pair)
}

export { pnlPercent }

/** Unrealised PnL at the mark price: value × move / open price, signed by direction. */
export function livePnl(
  position: { direction: 'long' | 'short'; shares: string; openPrice: string },
  markPrice: string,
  shareNumber: string,
): Decimal {
  return contractPnl(position.direction, mul(position.shares, shareNumber), position.openPrice, markPrice)
}

/** Whole seconds left until a time, never negative. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000))
}

/** 75 -> 01:15 */
export function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60)
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`
}
