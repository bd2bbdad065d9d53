import { Decimal } from 'decimal.js'
import { MONEY_PLACES, spotTotals, tradeFee, type SpotOrder, type SpotPair } from '@tradegate/shared'
import type { User } from '../accounts/users'
import { refuse } from '../api/refusal'
import { QUOTE_COIN } from '../markets/catalogue'
import { spotPairs } from '../markets/listings'
import type { SymbolTick } from '../markets/market'
import type { BookFill, OrderBook, RestingOrder } from '../markets/order-book'
import { ZERO, text } from '../money/amounts'
import type { NoticeFields } from '../accounts/notices'
import { holdLeg, releaseLeg, type Leg } from '../money/ledger'
import { idSequence, type SandboxState } from '../state'
import {
  ownRows,
  payFeeRebates,
  positiveAmount,
  requireFundPassword,
  requirePlaces,
  requirePriceInBand,
  requireTabOpen,
} from './rules'

// Spot orders against each symbol's order book. Amounts are quantities of the coin; fees are taken
// in usdt from each side of every trade, at the pair's rate. A market order walks the book and must
// fill whole. A limit order takes what the book offers up to its price, then rests in the book for
// the rest; a resting order fills at its own price once the market trades at or through it (the
// house takes the other side), or earlier when another user's order walks into it.

interface UserSpotOrder extends Omit<SpotOrder, 'filledAmount' | 'fee'> {
  userId: string
  coin: string
  filledAmount: Decimal
  /** sum of quantity × price of every fill, for the average price */
  filledValue: Decimal
  fee: Decimal
  /** what the order holds frozen while open */
  frozen: Decimal
  /** its place in the book while it rests */
  resting: RestingOrder | null
}

export interface SpotSubmission {
  symbol: string
  side: 'buy' | 'sell'
  type: 'market' | 'limit'
  price?: string | number
  amount: string | number
  fundPwd?: string
}

/** One order's share of a ledger movement: its legs, then what to record once the movement stood. */
interface Execution {
  legs: Leg[]
  settle: () => void
  /** the order's owner is told of this fill when it happens without their asking (a resting order) */
  notice: NoticeFields & { userId: string }
}

export class SpotDesk {
  private readonly orders: UserSpotOrder[] = []
  private readonly byId = new Map<number, UserSpotOrder>()
  private readonly nextId = idSequence()
  private readonly pairs = new Map(spotPairs().map((pair) => [pair.symbol, pair]))

  constructor(private readonly state: SandboxState) {}

  submit(user: User, input: SpotSubmission): SpotOrder {
    const { pair, quantity, limit, last } = this.checkSubmission(user, input)
    const book = this.state.market.book(input.symbol)
    const units = book.units(quantity)
    const fills = book.plan(input.side, units, limit ? book.ticks(limit) : null, user.id)
    const filledUnits = unitsOf(fills)
    if (!limit && filledUnits < units) refuse('notEnoughLiquidity')

    const order = newOrder(this.nextId(), user, pair, input, quantity, limit, this.state.clock())
    // a limit buy holds the most it can cost, fee included; a limit sell holds the coins
    const hold = input.side === 'buy' && limit ? spotTotals(quantity, limit, pair.feeRate).cost : quantity
    const holdLegs = limit ? [holdLeg(user.id, 'platform', this.heldCoin(order), hold)] : []
    if (fills.length > 0) {
      order.frozen = limit ? hold : ZERO
      this.take(order, fills, book, holdLegs)
    } else {
      this.state.ledger.apply({
        kind: 'spot',
        note: `limit ${input.side} #${order.id} placed`,
        legs: holdLegs,
      })
      order.frozen = hold
    }
    this.orders.unshift(order)
    this.byId.set(order.id, order)
    if (limit && order.status === 'open') this.restRemainder(order, book, limit, units - filledUnits, last)
    return publicOrder(order)
  }

  /** The pair, quantity and limit of a submission the desk accepts, refused otherwise; and the last price. */
  private checkSubmission(
    user: User,
    input: SpotSubmission,
  ): { pair: SpotPair; quantity: Decimal; limit: Decimal | null; last: Decimal } {
    requireTabOpen(this.state, 'BBTrading', 'spotTradingClosed')
    const pair =
      this.pairs.get(input.symbol) ??
      refuse(this.state.market.has(input.symbol) ? 'notASpotPair' : 'unknownSymbol')
    requireFundPassword(
      this.state,
      user,
      this.state.settings.current.FUND_PASSWORD_SETTING.spot,
      input.fundPwd,
    )
    const quantity = positiveAmount(input.amount)
    requirePlaces(quantity, pair.coinPrecision, 'amountPrecisionExceeded')
    const allowed = {
      buy: { market: pair.marketBuy, limit: pair.limitedBuy },
      sell: { market: pair.marketSell, limit: pair.limitedSell },
    }[input.side][input.type]
    if (!allowed) refuse('orderTypeClosed')

    const last = this.state.market.price(input.symbol)
    let limit: Decimal | null = null
    if (input.type === 'limit') {
      if (input.price === undefined) refuse('priceRequired')
      limit = positiveAmount(input.price, 'priceMustBePositive')
      requirePlaces(limit, pair.basePrecision, 'pricePrecisionExceeded')
      requirePriceInBand(limit, last)
    }
    const value = quantity.times(limit ?? last)
    if (value.lessThan(pair.orderMin)) refuse('orderBelowMinimum')
    if (value.greaterThan(pair.orderMax)) refuse('orderAboveMaximum')
    return { pair, quantity, limit, last }
  }

  /** What a limit order could not take from the book rests there, or fills at once if the market crossed it. */
  private restRemainder(order: UserSpotOrder, book: OrderBook, limit: Decimal, units: number, last: Decimal) {
    order.resting = {
      id: order.id,
      userId: order.userId,
      side: order.side,
      price: book.ticks(limit),
      remaining: units,
    }
    // what the book could not give at the limit, the market already trades through: it fills there
    if (this.crossed(order, last)) this.fillAtLimit(order, book)
    else book.rest(order.resting)
  }

  /** Cancels an open order of the user's own, takes it out of the book and gives back what it held. */
  cancel(user: User, id: string): SpotOrder {
    const order = this.byId.get(Number(id))
    if (!order || order.userId !== user.id) refuse('unknownOrder')
    if (order.status !== 'open') refuse('orderNotOpen')
    this.state.ledger.apply({
      kind: 'spot',
      note: `limit ${order.side} #${order.id} cancelled`,
      legs: [releaseLeg(order.userId, 'platform', this.heldCoin(order), order.frozen)],
    })
    if (order.resting) this.state.market.book(order.symbol).remove(order.resting)
    order.status = 'cancelled'
    order.frozen = ZERO
    order.resting = null
    return publicOrder(order)
  }

  list(userId: string, filter: { status?: string; symbol?: string }): SpotOrder[] {
    return ownRows(this.orders, userId, filter).map(publicOrder)
  }

  /** Resting orders the new price reached fill at their limits. */
  onTick(ticks: readonly SymbolTick[]): void {
    for (const { symbol, price } of ticks) {
      if (!this.pairs.has(symbol)) continue
      const book = this.state.market.book(symbol)
      for (const resting of book.crossedBy(price)) {
        const order = this.byId.get(resting.id)
        if (!order) continue
        try {
          this.fillAtLimit(order, book, true)
        } catch {
          // a fill that cannot be paid (never expected: the order holds its worst case) stays open
        }
      }
    }
  }

  private crossed(order: UserSpotOrder, price: Decimal): boolean {
    return order.side === 'buy'
      ? price.lessThanOrEqualTo(order.price)
      : price.greaterThanOrEqualTo(order.price)
  }

  /** The coin an open order of this side holds: usdt for a buy, the coin for a sell. */
  private heldCoin(order: UserSpotOrder): string {
    return order.side === 'buy' ? QUOTE_COIN : order.coin
  }

  /**
   * The taker side of an order walking the book: one movement for its hold (a limit order's), its
   * trades and every order it meets, so either all of it stands or none.
   */
  private take(order: UserSpotOrder, fills: readonly BookFill[], book: OrderBook, holdLegs: Leg[]): void {
    const makers: Execution[] = []
    const house: Leg[] = []
    let quantity = ZERO
    let value = ZERO
    for (const fill of fills) {
      const qty = book.quantityOf(fill.qty)
      const price = book.priceOf(fill.price)
      quantity = quantity.plus(qty)
      value = value.plus(qty.times(price))
      const maker = fill.maker && this.byId.get(fill.maker.id)
      if (maker) makers.push(this.execute(maker, qty, qty.times(price)))
      else house.push(...houseLegs(order, qty, qty.times(price)))
    }
    const taker = this.execute(order, quantity, value)
    this.state.ledger.apply({
      kind: 'spot',
      note: `${order.side} ${text(quantity)} ${order.coin} from the book (#${order.id})`,
      legs: [...holdLegs, ...taker.legs, ...house, ...makers.flatMap((maker) => maker.legs)],
      // the taker hears its answer; the resting orders it met are told they filled
      notices: makers.map((maker) => maker.notice),
    })
    book.take(order.side, fills)
    taker.settle()
    for (const maker of makers) maker.settle()
  }

  /** A resting order filled whole at its own price by the house; `announce` when the market moved, not the user. */
  private fillAtLimit(order: UserSpotOrder, book: OrderBook, announce = false): void {
    const resting = order.resting
    if (!resting || order.status !== 'open') return
    const qty = book.quantityOf(resting.remaining)
    const value = qty.times(order.price)
    const execution = this.execute(order, qty, value)
    this.state.ledger.apply({
      kind: 'spot',
      note: `${order.side} ${text(qty)} ${order.coin} at ${order.price} (#${order.id})`,
      legs: [...execution.legs, ...houseLegs(order, qty, value)],
      notices: announce ? [execution.notice] : [],
    })
    book.remove(resting)
    execution.settle()
  }

  /**
   * The order's own legs for trading `qty` worth `value` (one level's or several levels'): coins in
   * or out, usdt out or in, its fee, and, once it is done, what it still held.
   */
  private execute(order: UserSpotOrder, qty: Decimal, value: Decimal): Execution {
    const pair = this.pairs.get(order.symbol) as SpotPair
    const fee = tradeFee(value, pair.feeRate)
    const buying = order.side === 'buy'
    const fromHold = order.type === 'limit'
    const spent = buying ? value.plus(fee) : qty
    const spentCoin = this.heldCoin(order)
    const wallet = { userId: order.userId, account: 'platform' as const }
    const done = order.filledAmount.plus(qty).greaterThanOrEqualTo(order.amount)
    const leftHeld = fromHold ? order.frozen.minus(spent) : ZERO
    const legs: Leg[] = [
      fromHold
        ? { ...wallet, coin: spentCoin, frozen: spent.negated() }
        : { ...wallet, coin: spentCoin, available: spent.negated() },
      buying
        ? { ...wallet, coin: order.coin, available: qty }
        : { ...wallet, coin: QUOTE_COIN, available: value.minus(fee) },
      { pool: 'fees', coin: QUOTE_COIN, amount: fee },
    ]
    if (done && leftHeld.greaterThan(0)) legs.push(releaseLeg(order.userId, 'platform', spentCoin, leftHeld))
    return {
      legs,
      notice: {
        userId: order.userId,
        kind: done ? 'orderFilled' : 'orderPartFilled',
        symbol: order.symbol,
        side: order.side,
        qty: text(qty),
        price: text(value.dividedBy(qty).toDecimalPlaces(Math.max(MONEY_PLACES, pair.basePrecision))),
      },
      settle: () => {
        order.filledAmount = order.filledAmount.plus(qty)
        order.filledValue = order.filledValue.plus(value)
        order.filledPrice = text(averagePrice(order, pair.basePrecision))
        order.fee = order.fee.plus(fee)
        order.frozen = done ? ZERO : leftHeld
        if (done) {
          order.status = 'filled'
          order.resting = null
        }
        payFeeRebates(this.state, order.userId, QUOTE_COIN, fee)
      },
    }
  }
}

/** A new open order, nothing filled or held yet. */
function newOrder(
  id: number,
  user: User,
  pair: SpotPair,
  input: SpotSubmission,
  quantity: Decimal,
  limit: Decimal | null,
  createdAt: number,
): UserSpotOrder {
  return {
    id,
    userId: user.id,
    coin: pair.coin,
    symbol: input.symbol,
    side: input.side,
    type: input.type,
    price: limit ? text(limit) : '',
    amount: text(quantity),
    filledAmount: ZERO,
    filledValue: ZERO,
    filledPrice: '',
    fee: ZERO,
    status: 'open',
    createdAt,
    frozen: ZERO,
    resting: null,
  }
}

/** The house on the other side of an order: it delivers what the order buys and pays what it sells. */
function houseLegs(order: UserSpotOrder, qty: Decimal, value: Decimal): Leg[] {
  return order.side === 'buy'
    ? [
        { pool: 'house', coin: order.coin, amount: qty.negated() },
        { pool: 'house', coin: QUOTE_COIN, amount: value },
      ]
    : [
        { pool: 'house', coin: order.coin, amount: qty },
        { pool: 'house', coin: QUOTE_COIN, amount: value.negated() },
      ]
}

function unitsOf(fills: readonly BookFill[]): number {
  return fills.reduce((sum, fill) => sum + fill.qty, 0)
}

/** The average fill price, truncated at 8 places or at the pair's price places when those are finer. */
function averagePrice(order: UserSpotOrder, pricePlaces: number): Decimal {
  if (order.filledAmount.isZero()) return ZERO
  const places = Math.max(MONEY_PLACES, pricePlaces)
  return order.filledValue.dividedBy(order.filledAmount).toDecimalPlaces(places, Decimal.ROUND_DOWN)
}

function publicOrder({
  userId: _owner,
  coin: _coin,
  frozen: _frozen,
  resting: _resting,
  filledValue: _value,
  ...order
}: UserSpotOrder): SpotOrder {
  return { ...order, filledAmount: text(order.filledAmount), fee: text(order.fee) }
}
