import { Decimal } from 'decimal.js'
import {
  div,
  mul,
  sub,
  toDecimal,
  add,
  type Balance,
  type ContractPair,
  type SpotPair,
} from '@tradegate/shared'

// The numbers order forms show before anything is sent: all decimal.js, truncated so nothing is
// promised that the server would not give.

/** Keeps digits and one decimal point, at most `places` decimals; anything else typed is dropped. */
export function sanitiseAmount(text: string, places: number): string {
  const cleaned = text.replace(/,/g, '.').replace(/[^\d.]/g, '')
  const [whole = '', ...rest] = cleaned.split('.')
  if (rest.length === 0) return whole
  if (places <= 0) return whole
  return `${whole}.${rest.join('').slice(0, places)}`
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

/** Order value in the quote coin and the fee on it. */
export function spotEstimate(amount: string, price: string, pair: Pick<SpotPair, 'feeRate'>): SpotEstimate {
  const total = mul(amount, price)
  return { total, fee: mul(total, pair.feeRate) }
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
  const quantity = side === 'buy' ? div(share, mul(price, add(1, pair.feeRate))) : share
  return quantity.toDecimalPlaces(pair.coinPrecision, Decimal.ROUND_DOWN).toFixed()
}

export function leverageChoices(pair: Pick<ContractPair, 'leverage'>): number[] {
  return pair.leverage
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((value) => Number.isInteger(value) && value > 0)
}

export interface ContractPreview {
  value: Decimal
  margin: Decimal
  openFee: Decimal
  closeFee: Decimal
  /** margin and open fee: what leaves the available balance */
  cost: Decimal
  liquidationPrice: Decimal
}

/** Position value is shares × usdt per share; the position is liquidated when its loss eats the margin. */
export function contractPreview(
  shares: string,
  leverage: number,
  price: string,
  direction: 'long' | 'short',
  pair: Pick<ContractPair, 'shareNumber' | 'openFee' | 'closeFee'>,
): ContractPreview {
  const value = mul(shares, pair.shareNumber)
  const margin = div(value, leverage)
  const openFee = mul(value, pair.openFee)
  const closeFee = mul(value, pair.closeFee)
  return {
    value,
    margin,
    openFee,
    closeFee,
    cost: margin.plus(openFee),
    liquidationPrice: liquidationPrice(price, margin, value, direction),
  }
}

export function liquidationPrice(
  openPrice: unknown,
  margin: unknown,
  value: unknown,
  direction: 'long' | 'short',
): Decimal {
  const ratio = div(margin, value)
  const price = direction === 'long' ? mul(openPrice, sub(1, ratio)) : mul(openPrice, add(1, ratio))
  return price.greaterThan(0) ? price : toDecimal(0)
}

/** Unrealised PnL at the mark price: value × move / open price, signed by direction. */
export function livePnl(
  position: { direction: 'long' | 'short'; shares: string; openPrice: string },
  markPrice: string,
  shareNumber: string,
): Decimal {
  const value = mul(position.shares, shareNumber)
  const move = sub(markPrice, position.openPrice)
  const pnl = div(mul(value, move), position.openPrice)
  return position.direction === 'long' ? pnl : pnl.negated()
}

/** PnL as a percent of margin (return on equity). */
export function pnlPercent(pnl: Decimal, margin: string): Decimal {
  return div(mul(pnl, 100), margin)
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
