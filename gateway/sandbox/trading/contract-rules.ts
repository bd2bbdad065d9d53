import type { Decimal } from 'decimal.js'
import {
  toDecimal,
  type ContractOrder,
  type ContractOrderType,
  type TimeInForce,
  type TriggerBy,
} from '@tradegate/shared'
import { refuse } from '../api/refusal'
import { contractLeverages, type Instrument } from '../markets/catalogue'
import { ZERO } from '../money/amounts'

// The contract desk's rules that need no state: which options an order type takes, leverage,
// exits around a price, and which way a price crosses an order.

export type Direction = 'long' | 'short'

export interface ContractSubmission {
  symbol: string
  direction: Direction
  type: ContractOrderType
  price?: string | number
  leverage: number
  shares: string | number
  fundPwd?: string
  takeProfit?: string | number
  stopLoss?: string | number
  triggerBy?: TriggerBy
  triggerPrice?: string | number
  timeInForce?: TimeInForce
  postOnly?: boolean
  reduceOnly?: boolean
}

/** A take-profit and a stop-loss (zero for none) and the price they watch. */
export interface Exits {
  takeProfit: Decimal
  stopLoss: Decimal
  triggerBy: TriggerBy
}

/** The highest leverage a pair takes: every whole one from 1 up to it is (a slider sets it). */
export function maxLeverageOf(instrument: Pick<Instrument, 'coin'>): number {
  return Math.max(...contractLeverages(instrument).split(',').map(Number))
}

export function requireLeverage(leverage: number, max: number): void {
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > max) refuse('leverageNotAllowed')
}

export const isStop = (type: ContractOrderType): boolean => type === 'stopMarket' || type === 'stopLimit'
export const hasLimit = (type: ContractOrderType): boolean => type === 'limit' || type === 'stopLimit'

/**
 * Refuses an option the order's type does not take: a trigger off a stop order, a time in force or
 * post-only off a plain limit, post-only with IOC or FOK (it would never rest), and on a reduce-only
 * order exits, IOC or FOK (it closes, so it sets no exits; it rests or goes to the market).
 */
export function requireOptionsFit(input: ContractSubmission): void {
  const tif = input.timeInForce ?? 'GTC'
  const misfit =
    (input.triggerPrice !== undefined && !isStop(input.type)) ||
    (tif !== 'GTC' && input.type !== 'limit') ||
    (input.postOnly === true && (input.type !== 'limit' || tif !== 'GTC')) ||
    (input.reduceOnly === true &&
      (tif !== 'GTC' || input.takeProfit !== undefined || input.stopLoss !== undefined))
  if (misfit) refuse('orderOptionNotForType')
}

/** A long opens by buying, so a price at or under its limit fills it; a short at or over. */
export function opensAt(direction: Direction, limit: Decimal | string, price: Decimal): boolean {
  return direction === 'long' ? price.lessThanOrEqualTo(limit) : price.greaterThanOrEqualTo(limit)
}

/** A long closes by selling, so at or above its limit; a short by buying, at or below. */
export function closesAt(direction: Direction, limit: Decimal | string, price: Decimal): boolean {
  return direction === 'long' ? price.greaterThanOrEqualTo(limit) : price.lessThanOrEqualTo(limit)
}

/** A stop triggers when the price it watches reaches its trigger from the side it started on. */
export function stopReached(
  order: Pick<ContractOrder, 'triggerPrice'> & { triggerAbove?: boolean },
  watched: Decimal,
): boolean {
  if (order.triggerPrice === undefined) return false
  return order.triggerAbove
    ? watched.greaterThanOrEqualTo(order.triggerPrice)
    : watched.lessThanOrEqualTo(order.triggerPrice)
}

/** What an order asks of its position's exits, or nothing when it names no price. */
export function exitsOf(
  stopLoss?: string | number,
  takeProfit?: string | number,
  triggerBy: TriggerBy = 'last',
): Exits | null {
  const stop = stopLoss === undefined ? ZERO : toDecimal(stopLoss)
  const take = takeProfit === undefined ? ZERO : toDecimal(takeProfit)
  if (!stop.greaterThan(0) && !take.greaterThan(0)) return null
  return { stopLoss: stop, takeProfit: take, triggerBy }
}

/** A long's take-profit above the price and stop-loss below; a short's the other way round (zero: none). */
export function requireExitsAround(
  direction: Direction,
  price: Decimal,
  stopLoss: Decimal,
  takeProfit: Decimal,
): void {
  const long = direction === 'long'
  if (
    stopLoss.greaterThan(0) &&
    (long ? stopLoss.greaterThanOrEqualTo(price) : stopLoss.lessThanOrEqualTo(price))
  ) {
    refuse(long ? 'stopLossMustBeBelowPrice' : 'stopLossMustBeAbovePrice')
  }
  if (
    takeProfit.greaterThan(0) &&
    (long ? takeProfit.lessThanOrEqualTo(price) : takeProfit.greaterThanOrEqualTo(price))
  ) {
    refuse(long ? 'takeProfitMustBeAbovePrice' : 'takeProfitMustBeBelowPrice')
  }
}

/** Which exit the price reached, if any. */
export function exitReached(
  setting: { stopLoss: string; takeProfit: string },
  direction: Direction,
  price: Decimal,
): 'stopLoss' | 'takeProfit' | null {
  const stop = toDecimal(setting.stopLoss)
  const take = toDecimal(setting.takeProfit)
  const long = direction === 'long'
  if (stop.greaterThan(0) && (long ? price.lessThanOrEqualTo(stop) : price.greaterThanOrEqualTo(stop)))
    return 'stopLoss'
  if (take.greaterThan(0) && (long ? price.greaterThanOrEqualTo(take) : price.lessThanOrEqualTo(take)))
    return 'takeProfit'
  return null
}

export interface UserContractOrder extends ContractOrder {
  userId: string
  /** open fee held with the margin until the order fills; a close order's close fee once it fills */
  fee: string
  /** the take-profit and stop-loss the position it opens starts with */
  exits?: Exits
  /** a stop's trigger lies above the watched price it was placed at: it triggers rising to it */
  triggerAbove?: boolean
}
