import type { Decimal } from 'decimal.js'
import {
  contractOpening,
  toDecimal,
  type ContractMarkInfo,
  type ContractOrder,
  type ContractTerms,
  type LossSetting,
  type Position,
  type TriggerBy,
} from '@tradegate/shared'
import type { User } from '../accounts/users'
import { refuse } from '../api/refusal'
import { QUOTE_COIN, USDT_PER_SHARE } from '../markets/catalogue'
import { CONTRACT_LIMITS } from '../markets/listings'
import type { SymbolTick } from '../markets/market'
import { ZERO, text } from '../money/amounts'
import { holdLeg, releaseLeg } from '../money/ledger'
import { idSequence, type SandboxState } from '../state'
import {
  maxLeverageOf,
  closesAt,
  exitsOf,
  hasLimit,
  isStop,
  opensAt,
  requireExitsAround,
  requireLeverage,
  requireOptionsFit,
  stopReached,
  type ContractSubmission,
  type Direction,
  type UserContractOrder,
} from './contract-rules'
import { ContractPositions } from './contract-positions'
import {
  ownRows,
  positiveAmount,
  requireFundPassword,
  requirePlaces,
  requirePriceInBand,
  requireTabOpen,
} from './rules'

export type { ContractSubmission } from './contract-rules'

/** No limit lies under this share of the market (the price band), so no fill is cheaper. */
const PRICE_FLOOR = '0.2'

// Leveraged contracts against the house, in the contract account, with the shared contract math: a
// share is USDT_PER_SHARE usdt of position value; margin is value / leverage; PnL is value × (price −
// open) / open, signed by direction. A user holds at most one position per pair and side: every fill
// joins it at the average entry. PnL and liquidation watch the pair's mark price (markets/
// reference-prices.ts), so one print far from the rest liquidates nothing; funding is settled every
// eight hours out of, or into, each position's margin.
//
// Orders: market fills at the last price now. A GTC limit fills at once at the last price when that
// has reached it, else rests and fills at its own price once the market reaches it. An IOC or FOK
// limit fills now only what the pair's book holds within the limit (the book measures the depth; the
// house takes the other side), IOC as much as there is, FOK all or nothing; what is left is
// cancelled. A post-only limit that would fill at once is refused. A stop order waits until the price
// it watches (last, or mark) reaches its trigger, then goes to the market (stopMarket) or becomes a
// limit (stopLimit). A reduce-only order closes shares of the position on its side and opens nothing.
// Amending keeps an order's id and creation time: the house fills every order its price reaches, so
// there is no queue place to keep or lose.

export class ContractDesk {
  private readonly orders: UserContractOrder[] = []
  private readonly positions: ContractPositions
  private readonly nextOrderId = idSequence()

  constructor(private readonly state: SandboxState) {
    this.positions = new ContractPositions(
      state,
      () => this.terms(),
      (positionId) =>
        this.orders.filter((order) => order.positionId === positionId && order.status === 'open'),
      (row) => this.orders.unshift({ id: this.nextOrderId(), ...row }),
    )
  }

  submit(user: User, input: ContractSubmission): ContractOrder {
    requireTabOpen(this.state, 'Ustandard', 'contractTradingClosed')
    const instrument = this.state.market.instrument(input.symbol)
    if (!instrument.contract) refuse('notAContractPair')
    requireLeverage(input.leverage, maxLeverageOf(instrument))
    requireOptionsFit(input)
    requireFundPassword(
      this.state,
      user,
      this.state.settings.current.FUND_PASSWORD_SETTING.contract,
      input.fundPwd,
    )
    const shares = this.checkShares(input.shares)
    const last = this.state.market.price(input.symbol)
    const limit = hasLimit(input.type) ? this.checkPrice(input.symbol, input.price, 'priceRequired') : null
    const trigger = isStop(input.type)
      ? this.checkPrice(input.symbol, input.triggerPrice, 'triggerPriceRequired')
      : null
    const order = this.newOrder(user.id, input, shares, limit ?? trigger ?? last)
    if (trigger) {
      order.triggerPrice = text(trigger)
      order.triggerBy = input.triggerBy ?? 'last'
      order.triggerAbove = trigger.greaterThan(this.watched(order))
    }
    if (input.reduceOnly) return this.submitReduceOnly(order, input.direction)

    this.positions.requireSameLeverage(user.id, input.symbol, input.direction, input.leverage)
    const exits = exitsOf(input.stopLoss, input.takeProfit, input.triggerBy)
    // judged against the price the order opens at: its limit, its trigger, or the market now
    if (exits) requireExitsAround(input.direction, limit ?? trigger ?? last, exits.stopLoss, exits.takeProfit)
    if (exits) order.exits = exits
    if (input.postOnly && limit && opensAt(order.direction, limit, last)) refuse('postOnlyWouldCross')
    this.state.ledger.apply({
      kind: 'contract',
      note: `${input.direction} order #${order.id} margin and fee held`,
      legs: [holdLeg(user.id, 'contract', QUOTE_COIN, toDecimal(order.margin).plus(order.fee))],
    })
    this.orders.unshift(order)
    if (order.timeInForce === 'IOC' || order.timeInForce === 'FOK') this.fillFromBook(order)
    else if (input.type === 'market') this.open(order, last)
    else if (input.type === 'limit' && opensAt(order.direction, order.price, last)) this.open(order, last)
    return publicOrder(order)
  }

  /** Changes an open order's limit, shares or waiting trigger; see the desk's note on queues. */
  amend(
    userId: string,
    id: number,
    change: { price?: string | number; shares?: string | number; triggerPrice?: string | number },
  ): ContractOrder {
    const order = this.ownOpenOrder(userId, id)
    if (change.price === undefined && change.shares === undefined && change.triggerPrice === undefined) {
      refuse('nothingToAmend')
    }
    if (change.price !== undefined && !hasLimit(order.type)) refuse('orderOptionNotForType')
    if (
      change.triggerPrice !== undefined &&
      (order.triggerPrice === undefined || order.triggeredAt !== undefined)
    ) {
      refuse('orderOptionNotForType')
    }
    const last = this.state.market.price(order.symbol)
    const price =
      change.price === undefined ? null : this.checkPrice(order.symbol, change.price, 'priceRequired')
    const trigger =
      change.triggerPrice === undefined
        ? null
        : this.checkPrice(order.symbol, change.triggerPrice, 'triggerPriceRequired')
    const shares = change.shares === undefined ? null : this.checkShares(change.shares)
    const closing = order.positionId !== undefined
    if (price && order.postOnly && opensAt(order.direction, price, last)) refuse('postOnlyWouldCross')
    if (shares && closing) this.positions.requireFreeShares(order.positionId!, shares, order)
    if (shares && !closing) this.rehold(order, shares)
    if (shares) order.shares = text(shares)
    if (price) order.price = text(price)
    if (trigger) {
      order.triggerPrice = text(trigger)
      order.triggerAbove = trigger.greaterThan(this.watched(order))
    }
    // an amended limit the market already reached fills now, as a new one would
    if (order.type === 'limit' && !closing && opensAt(order.direction, order.price, last))
      this.open(order, last)
    if (order.type === 'limit' && closing && closesAt(order.direction, order.price, last)) {
      this.positions.fillClose(order, last)
    }
    return publicOrder(order)
  }

  cancel(userId: string, id: number): void {
    const order = this.ownOpenOrder(userId, id)
    // a close order holds nothing: the position keeps its margin
    if (order.positionId === undefined)
      this.release(order, toDecimal(order.margin).plus(order.fee), 'cancelled')
    order.status = 'cancelled'
  }

  ordersOf(userId: string, status?: string): ContractOrder[] {
    return ownRows(this.orders, userId, { status }).map(publicOrder)
  }

  positionsOf(userId: string, status?: string): Position[] {
    return this.positions.list(userId, status)
  }

  markInfo(symbol: string): ContractMarkInfo {
    if (!this.state.market.instrument(symbol).contract) refuse('notAContractPair')
    const reference = this.state.market.reference(symbol)!
    return {
      symbol,
      lastPrice: text(this.state.market.price(symbol)),
      indexPrice: text(reference.indexPrice),
      markPrice: text(reference.markPrice),
      fundingRate: text(reference.fundingRate),
      nextFundingTime: reference.nextFundingTime,
      fundingIntervalMs: reference.fundingIntervalMs,
      maxLeverage: maxLeverageOf(this.state.market.instrument(symbol)),
    }
  }

  /** Closes a position at the market, or rests a close order at a price; see ContractPositions.stop. */
  stop(userId: string, id: number, input: { shares?: string; price?: string } = {}): Position {
    const position = this.positions.ownOpen(userId, id)
    if (input.price === undefined) return this.positions.closeAtMarket(position, input.shares)
    const limit = this.checkPrice(position.symbol, input.price, 'priceMustBePositive')
    const shares = input.shares === undefined ? null : this.checkCloseShares(input.shares)
    const order = this.positions.closeOrder(position, shares, this.nextOrderId(), this.state.clock())
    order.price = text(limit)
    this.orders.unshift(order)
    const market = this.state.market.price(position.symbol)
    // already at or past the limit: it closes now, at the market price, as a limit order would fill
    if (closesAt(order.direction, limit, market)) return this.positions.fillClose(order, market)
    return this.positions.view(position)
  }

  adjustMargin(userId: string, id: number, money: Decimal, add: boolean): Position {
    return this.positions.adjustMargin(userId, id, money, add)
  }

  lossesOf(userId: string): LossSetting[] {
    return this.positions.lossesOf(userId)
  }

  setLoss(
    userId: string,
    positionId: number,
    stopLoss?: Decimal,
    takeProfit?: Decimal,
    triggerBy: TriggerBy = 'last',
  ): LossSetting {
    return this.positions.setLoss(userId, positionId, stopLoss, takeProfit, triggerBy)
  }

  cancelLoss(userId: string, id: number): void {
    this.positions.cancelLoss(userId, id)
  }

  onTick(ticks: readonly SymbolTick[]): void {
    const prices = new Map(ticks.map((tick) => [tick.symbol, tick.price]))
    for (const order of [...this.orders]) {
      const price = prices.get(order.symbol)
      if (order.status !== 'open' || !price) continue
      if (order.triggerPrice !== undefined && order.triggeredAt === undefined) {
        if (!stopReached(order, this.watched(order))) continue
        order.triggeredAt = this.state.clock()
        if (order.type === 'stopMarket') {
          this.fillAtMarket(order, price)
          continue
        }
      }
      if (order.positionId !== undefined) {
        if (closesAt(order.direction, order.price, price))
          this.positions.fillClose(order, toDecimal(order.price), true)
      } else if (opensAt(order.direction, order.price, price)) {
        // a resting limit opens at its own price, however far the market moved past it
        this.open(order, toDecimal(order.price), true)
      }
    }
    this.positions.onTick(prices)
  }

  private submitReduceOnly(order: UserContractOrder, direction: Direction): ContractOrder {
    const position =
      this.positions.openOf(order.userId, order.symbol, direction) ?? refuse('reduceOnlyNoPosition')
    this.positions.requireFreeShares(position.id, toDecimal(order.shares))
    const last = this.state.market.price(order.symbol)
    Object.assign(order, {
      positionId: position.id,
      leverage: position.leverage,
      margin: text(this.positions.marginOf(position, order.shares)),
      fee: '0',
      reduceOnly: true,
    })
    if (order.postOnly && closesAt(direction, order.price, last)) refuse('postOnlyWouldCross')
    this.orders.unshift(order)
    if (order.type === 'market') this.positions.fillClose(order, last)
    else if (order.type === 'limit' && closesAt(direction, order.price, last))
      this.positions.fillClose(order, last)
    return publicOrder(order)
  }

  /** A triggered stop-market: an opening order opens at the market, a reduce-only one closes there. */
  private fillAtMarket(order: UserContractOrder, price: Decimal): void {
    if (order.positionId !== undefined) this.positions.fillClose(order, price, true)
    else this.open(order, price, true)
  }

  /**
   * IOC and FOK: the whole shares the pair's book holds within the limit fill now at the book's
   * average price (IOC as many as there are, FOK only all of them); the rest is cancelled.
   */
  private fillFromBook(order: UserContractOrder): void {
    const depth = this.bookDepth(order)
    const wanted = toDecimal(order.shares)
    const fill = depth.shares.lessThan(wanted) ? (order.timeInForce === 'IOC' ? depth.shares : ZERO) : wanted
    if (fill.greaterThan(0)) this.open(order, depth.price, false, fill)
    else {
      this.release(order, toDecimal(order.margin).plus(order.fee), 'not filled')
      order.status = 'cancelled'
    }
  }

  /** The shares (up to the order's) the book holds within the order's limit, and their average price. */
  private bookDepth(order: UserContractOrder): { shares: Decimal; price: Decimal } {
    const instrument = this.state.market.instrument(order.symbol)
    const book = this.state.market.book(order.symbol)
    const wanted = toDecimal(order.shares).times(USDT_PER_SHARE)
    // more coins than the order could need at the lowest price the band allows; the walk stops at its value
    const coins = wanted.dividedBy(toDecimal(order.price).times(PRICE_FLOOR))
    const units = book.units(coins.toDecimalPlaces(instrument.quantityPlaces, 0))
    const side = order.direction === 'long' ? 'buy' : 'sell'
    let value = ZERO
    let quantity = ZERO
    for (const fill of book.plan(side, units, book.ticks(toDecimal(order.price)), order.userId)) {
      const price = book.priceOf(fill.price)
      const needed = wanted.minus(value).dividedBy(price)
      const level = book.quantityOf(fill.qty)
      if (needed.lessThanOrEqualTo(level)) {
        // this level completes the order
        quantity = quantity.plus(needed)
        return {
          shares: toDecimal(order.shares),
          price: wanted.dividedBy(quantity).toDecimalPlaces(instrument.pricePlaces),
        }
      }
      quantity = quantity.plus(level)
      value = value.plus(level.times(price))
    }
    if (quantity.isZero()) return { shares: ZERO, price: ZERO }
    return {
      shares: value.dividedToIntegerBy(USDT_PER_SHARE),
      price: value.dividedBy(quantity).toDecimalPlaces(instrument.pricePlaces),
    }
  }

  /** Opens (or joins) the order's position with `shares` of it (all by default) at a price. */
  private open(
    order: UserContractOrder,
    price: Decimal,
    announce = false,
    shares = toDecimal(order.shares),
  ): void {
    const whole = shares.greaterThanOrEqualTo(order.shares)
    if (!whole) {
      const margin = this.positions.share(order.margin, order.shares, shares)
      const fee = this.positions.share(order.fee, order.shares, shares)
      this.release(
        order,
        toDecimal(order.margin).minus(margin).plus(toDecimal(order.fee).minus(fee)),
        'part not filled',
      )
      Object.assign(order, { margin: text(margin), fee: text(fee) })
    }
    this.positions.open(order, price, shares, announce)
    order.status = whole ? 'filled' : 'cancelled'
    order.filledShares = text(shares)
    order.filledPrice = text(price)
    if (order.type === 'market' || order.type === 'stopMarket') order.price = text(price)
  }

  /** Holds what an opening order's new size costs more, or gives back what it costs less. */
  private rehold(order: UserContractOrder, shares: Decimal): void {
    const opening = contractOpening(shares, order.leverage, order.price, order.direction, this.terms())
    const change = opening.cost.minus(toDecimal(order.margin).plus(order.fee))
    this.state.ledger.apply({
      kind: 'contract',
      note: `order #${order.id} amended`,
      legs: [holdLeg(order.userId, 'contract', QUOTE_COIN, change)],
    })
    Object.assign(order, { margin: text(opening.margin), fee: text(opening.openFee) })
  }

  private release(order: UserContractOrder, amount: Decimal, why: string): void {
    this.state.ledger.apply({
      kind: 'contract',
      note: `order #${order.id} ${why}`,
      legs: [releaseLeg(order.userId, 'contract', QUOTE_COIN, amount)],
    })
  }

  private newOrder(
    userId: string,
    input: ContractSubmission,
    shares: Decimal,
    price: Decimal,
  ): UserContractOrder {
    const opening = contractOpening(shares, input.leverage, price, input.direction, this.terms())
    return {
      id: this.nextOrderId(),
      userId,
      symbol: input.symbol,
      direction: input.direction,
      type: input.type,
      price: text(price),
      leverage: input.leverage,
      shares: text(shares),
      margin: text(opening.margin),
      status: 'open',
      createdAt: this.state.clock(),
      fee: text(opening.openFee),
      filledShares: '0',
      filledPrice: '',
      ...(hasLimit(input.type) ? { timeInForce: input.timeInForce ?? 'GTC' } : {}),
      ...(input.postOnly ? { postOnly: true } : {}),
    }
  }

  /** The price a stop order watches now. */
  private watched(order: UserContractOrder): Decimal {
    return order.triggerBy === 'mark'
      ? this.state.market.markPrice(order.symbol)
      : this.state.market.price(order.symbol)
  }

  private checkShares(value: string | number): Decimal {
    const shares = positiveAmount(value)
    if (!shares.isInteger()) refuse('sharesMustBeWhole')
    if (shares.lessThan(CONTRACT_LIMITS.minShares)) refuse('sharesBelowMinimum')
    if (shares.greaterThan(CONTRACT_LIMITS.maxShares)) refuse('sharesAboveMaximum')
    return shares
  }

  private checkCloseShares(value: string): Decimal {
    const shares = toDecimal(value)
    if (!shares.greaterThan(0)) refuse('sharesMustBePositive')
    if (!shares.isInteger()) refuse('sharesMustBeWhole')
    return shares
  }

  /** A limit or trigger price: given, positive, at the pair's places, within the band around the market. */
  private checkPrice(
    symbol: string,
    value: string | number | undefined,
    missing: 'priceRequired' | 'triggerPriceRequired' | 'priceMustBePositive',
  ): Decimal {
    if (value === undefined) refuse(missing)
    const price = positiveAmount(value, 'priceMustBePositive')
    requirePlaces(price, this.state.market.instrument(symbol).pricePlaces, 'pricePrecisionExceeded')
    requirePriceInBand(price, this.state.market.price(symbol))
    return price
  }

  private ownOpenOrder(userId: string, id: number): UserContractOrder {
    const order = this.orders.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownOrder')
    return order.status === 'open' ? order : refuse('orderNotOpen')
  }

  private terms(): ContractTerms {
    return { shareNumber: USDT_PER_SHARE, ...this.state.settings.current.CONTRACT_FEES }
  }
}

/** The fee shows once paid: an open order's is only held, a close order's not yet known. */
function publicOrder({
  userId: _owner,
  fee,
  exits: _exits,
  triggerAbove: _above,
  ...order
}: UserContractOrder): ContractOrder {
  return order.status === 'filled' || order.filledShares !== '0' ? { ...order, fee } : order
}
