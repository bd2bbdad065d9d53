import type { Decimal } from 'decimal.js'
import {
  MONEY_PLACES,
  contractOpening,
  contractPnl,
  contractSettlement,
  liquidationPrice,
  marginShare,
  toDecimal,
  tradeFee,
  type ContractOrder,
  type ContractTerms,
  type LossSetting,
  type Position,
  type TriggerBy,
} from '@tradegate/shared'
import type { NoticeFields } from '../accounts/notices'
import type { User } from '../accounts/users'
import { refuse } from '../api/refusal'
import { CONTRACT_LEVERAGES, QUOTE_COIN, USDT_PER_SHARE } from '../markets/catalogue'
import { CONTRACT_LIMITS } from '../markets/listings'
import type { SymbolTick } from '../markets/market'
import { ZERO, text } from '../money/amounts'
import { holdLeg, releaseLeg } from '../money/ledger'
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

// Leveraged contracts against the house, in the contract account, with the shared contract math: a
// share is USDT_PER_SHARE usdt of position value; margin is value / leverage; PnL is value × (price −
// open) / open, signed by direction. A position whose loss reaches its margin is liquidated. A limit
// order opens at its own price once the market reaches it; a close order (a limit close of some of a
// position's shares) closes those shares at its price once the market reaches it.

type Direction = 'long' | 'short'

interface UserContractOrder extends ContractOrder {
  userId: string
  /** open fee held with the margin until the order fills; a close order's close fee once it fills */
  fee: string
  /** the take-profit and stop-loss the position it opens starts with */
  exits?: Exits
}

/** A take-profit and a stop-loss (zero for none) and the price they watch. */
interface Exits {
  takeProfit: Decimal
  stopLoss: Decimal
  triggerBy: TriggerBy
}

interface UserPosition extends Omit<Position, 'pnl' | 'liquidationPrice'> {
  userId: string
  value: string
  pnl: string
}

interface UserLossSetting extends LossSetting {
  userId: string
}

export interface ContractSubmission {
  symbol: string
  direction: Direction
  type: 'market' | 'limit'
  price?: string | number
  leverage: number
  shares: string | number
  fundPwd?: string
  takeProfit?: string | number
  stopLoss?: string | number
  triggerBy?: TriggerBy
}

const LEVERAGES = CONTRACT_LEVERAGES.split(',').map(Number)
/** How many of a pair's last prices its mark price averages. */
const MARK_TICKS = 5
/** Margin may not be taken out below what the highest leverage would need. */
const MIN_MARGIN_RATIO = 1 / Math.max(...LEVERAGES)

export class ContractDesk {
  private readonly orders: UserContractOrder[] = []
  private readonly positions: UserPosition[] = []
  private readonly losses: UserLossSetting[] = []
  /** each pair's last prices, newest last, the mark price is the mean of */
  private readonly recentPrices = new Map<string, Decimal[]>()
  private readonly nextOrderId = idSequence()
  private readonly nextPositionId = idSequence()
  private readonly nextLossId = idSequence()

  constructor(private readonly state: SandboxState) {}

  submit(user: User, input: ContractSubmission): ContractOrder {
    requireTabOpen(this.state, 'Ustandard', 'contractTradingClosed')
    const instrument = this.state.market.instrument(input.symbol)
    if (!instrument.contract) refuse('notAContractPair')
    if (!LEVERAGES.includes(input.leverage)) refuse('leverageNotAllowed')
    requireFundPassword(
      this.state,
      user,
      this.state.settings.current.FUND_PASSWORD_SETTING.contract,
      input.fundPwd,
    )
    const shares = positiveAmount(input.shares)
    if (!shares.isInteger()) refuse('sharesMustBeWhole')
    if (shares.lessThan(CONTRACT_LIMITS.minShares)) refuse('sharesBelowMinimum')
    if (shares.greaterThan(CONTRACT_LIMITS.maxShares)) refuse('sharesAboveMaximum')
    let price = this.state.market.price(input.symbol)
    if (input.type === 'limit') {
      if (input.price === undefined) refuse('priceRequired')
      price = positiveAmount(input.price, 'priceMustBePositive')
      requirePlaces(price, instrument.pricePlaces, 'pricePrecisionExceeded')
    }

    if (input.type === 'limit') requirePriceInBand(price, this.state.market.price(input.symbol))
    const exits = exitsOf(input.stopLoss, input.takeProfit, input.triggerBy)
    // judged against the price the order opens at: its limit, or the market now
    if (exits) requireExitsAround(input.direction, price, exits.stopLoss, exits.takeProfit)
    const opening = contractOpening(shares, input.leverage, price, input.direction, this.terms())
    const order: UserContractOrder = {
      id: this.nextOrderId(),
      userId: user.id,
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
      ...(exits ? { exits } : {}),
    }
    this.state.ledger.apply({
      kind: 'contract',
      note: `${input.direction} order #${order.id} margin and fee held`,
      legs: [holdLeg(user.id, 'contract', QUOTE_COIN, opening.cost)],
    })
    this.orders.unshift(order)
    const live = this.state.market.price(input.symbol)
    if (input.type === 'market' || this.crossed(order, live)) this.open(order, live)
    return publicOrder(order)
  }

  cancel(userId: string, id: number): void {
    const order = this.orders.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownOrder')
    if (order.status !== 'open') refuse('orderNotOpen')
    // a close order holds nothing: the position keeps its margin
    if (order.positionId === undefined) {
      const hold = toDecimal(order.margin).plus(order.fee)
      this.state.ledger.apply({
        kind: 'contract',
        note: `order #${id} cancelled`,
        legs: [releaseLeg(userId, 'contract', QUOTE_COIN, hold)],
      })
    }
    order.status = 'cancelled'
  }

  ordersOf(userId: string, status?: string): ContractOrder[] {
    return ownRows(this.orders, userId, { status }).map(publicOrder)
  }

  positionsOf(userId: string, status?: string): Position[] {
    return ownRows(this.positions, userId, { status }).map((position) => this.view(position))
  }

  /**
   * Closes a position at the market: all of it, or `shares` of it. With a price, rests a close order
   * for those shares (all the position's free shares without `shares`) instead, unless the market is
   * already at or past that price. Shares that open close orders hold cannot be closed again; closing
   * the whole position cancels those orders. Answers the closed part, or the position while its close
   * order rests.
   */
  stop(userId: string, id: number, input: { shares?: string; price?: string } = {}): Position {
    const position = this.ownOpenPosition(userId, id)
    const market = this.state.market.price(position.symbol)
    const free = toDecimal(position.shares).minus(this.reservedShares(position.id))
    let closing = input.price === undefined ? toDecimal(position.shares) : free
    if (input.shares !== undefined) {
      closing = toDecimal(input.shares)
      if (!closing.greaterThan(0)) refuse('sharesMustBePositive')
      if (!closing.isInteger()) refuse('sharesMustBeWhole')
      if (closing.greaterThan(free)) refuse('sharesAboveOpen')
    }
    if (input.price === undefined) return this.view(this.settle(position, closing, market, 'closed'))

    const limit = positiveAmount(input.price, 'priceMustBePositive')
    requirePlaces(limit, this.state.market.instrument(position.symbol).pricePlaces, 'pricePrecisionExceeded')
    requirePriceInBand(limit, market)
    if (!closing.greaterThan(0)) refuse('sharesAboveOpen')
    const order: UserContractOrder = {
      id: this.nextOrderId(),
      userId,
      symbol: position.symbol,
      direction: position.direction,
      type: 'limit',
      price: text(limit),
      leverage: position.leverage,
      shares: text(closing),
      margin: text(marginShare(position.margin, position.shares, closing)),
      status: 'open',
      createdAt: this.state.clock(),
      fee: '0',
      positionId: position.id,
      filledShares: '0',
      filledPrice: '',
    }
    this.orders.unshift(order)
    // already at or past the limit: it closes now, at the market price, as a limit order would fill
    if (this.closeCrossed(order, market)) return this.view(this.fillClose(order, position, market))
    return this.view(position)
  }

  adjustMargin(userId: string, id: number, money: Decimal, add: boolean): Position {
    const position = this.ownOpenPosition(userId, id)
    if (!money.greaterThan(0)) refuse('amountMustBePositive')
    requirePlaces(money, MONEY_PLACES, 'amountPrecisionExceeded')
    const margin = toDecimal(position.margin)
    const next = add ? margin.plus(money) : margin.minus(money)
    if (!add) {
      const loss = this.pnl(position, this.state.market.price(position.symbol)).negated()
      if (next.lessThan(toDecimal(position.value).times(MIN_MARGIN_RATIO)) || next.lessThanOrEqualTo(loss)) {
        refuse('marginTooLow')
      }
    }
    const change = add ? money : money.negated()
    this.state.ledger.apply({
      kind: 'contract',
      note: `position #${id} margin ${add ? 'added' : 'taken out'}`,
      legs: [holdLeg(userId, 'contract', QUOTE_COIN, change)],
    })
    position.margin = text(next)
    this.publish(position)
    return this.view(position)
  }

  lossesOf(userId: string): LossSetting[] {
    return this.losses.filter((row) => row.userId === userId).map(publicLoss)
  }

  setLoss(
    userId: string,
    positionId: number,
    stopLoss?: Decimal,
    takeProfit?: Decimal,
    triggerBy: TriggerBy = 'last',
  ): LossSetting {
    const position = this.ownOpenPosition(userId, positionId)
    if (!stopLoss?.greaterThan(0) && !takeProfit?.greaterThan(0)) refuse('stopLossOrTakeProfitRequired')
    const price = this.state.market.price(position.symbol)
    requireExitsAround(position.direction, price, stopLoss ?? ZERO, takeProfit ?? ZERO)
    return publicLoss(
      this.keepExits(position, { stopLoss: stopLoss ?? ZERO, takeProfit: takeProfit ?? ZERO, triggerBy }),
    )
  }

  /** The position's one active take-profit and stop-loss: a new one replaces the last. */
  private keepExits(position: UserPosition, exits: Exits): UserLossSetting {
    for (const row of this.losses) {
      if (row.positionId === position.id && row.status === 'active') row.status = 'cancelled'
    }
    const setting: UserLossSetting = {
      id: this.nextLossId(),
      userId: position.userId,
      positionId: position.id,
      stopLoss: text(exits.stopLoss),
      takeProfit: text(exits.takeProfit),
      status: 'active',
      triggerBy: exits.triggerBy,
    }
    this.losses.unshift(setting)
    return setting
  }

  /**
   * The mark price: the mean of the pair's last MARK_TICKS prices, which one print far from the rest
   * cannot move past a trigger, as an exchange's mark price does not follow a lone wick.
   */
  private markPrice(symbol: string, last: Decimal): Decimal {
    const recent = this.recentPrices.get(symbol) ?? [last]
    return recent.reduce((sum, price) => sum.plus(price), ZERO).dividedBy(recent.length)
  }

  private notePrice(symbol: string, price: Decimal): void {
    const recent = this.recentPrices.get(symbol) ?? []
    recent.push(price)
    if (recent.length > MARK_TICKS) recent.shift()
    this.recentPrices.set(symbol, recent)
  }

  cancelLoss(userId: string, id: number): void {
    const setting =
      this.losses.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownLossSetting')
    if (setting.status !== 'active') refuse('lossSettingNotActive')
    setting.status = 'cancelled'
  }

  onTick(ticks: readonly SymbolTick[]): void {
    const prices = new Map(ticks.map((tick) => [tick.symbol, tick.price]))
    for (const tick of ticks) this.notePrice(tick.symbol, tick.price)
    for (const order of [...this.orders]) {
      const price = prices.get(order.symbol)
      if (order.status !== 'open' || !price || order.positionId !== undefined) continue
      // a resting limit opens at its own price, however far the market moved past it
      if (this.crossed(order, price)) this.open(order, toDecimal(order.price), true)
    }
    for (const position of [...this.positions]) {
      const price = prices.get(position.symbol)
      if (position.status !== 'open' || !price) continue
      if (this.pnl(position, price).lessThanOrEqualTo(toDecimal(position.margin).negated())) {
        this.settle(position, toDecimal(position.shares), price, 'liquidated', 'liquidated')
        continue
      }
      for (const order of this.closeOrdersOf(position.id)) {
        if (position.status === 'open' && this.closeCrossed(order, price)) {
          this.fillClose(order, position, toDecimal(order.price), true)
        }
      }
      if (position.status !== 'open') continue
      const setting = this.losses.find((row) => row.positionId === position.id && row.status === 'active')
      const watched = setting?.triggerBy === 'mark' ? this.markPrice(position.symbol, price) : price
      const trigger = setting && this.triggeredBy(setting, position.direction, watched)
      if (setting && trigger) {
        setting.status = 'triggered'
        this.settle(position, toDecimal(position.shares), price, 'closed', trigger)
      }
    }
  }

  private crossed(order: UserContractOrder, price: Decimal): boolean {
    return order.direction === 'long'
      ? price.lessThanOrEqualTo(order.price)
      : price.greaterThanOrEqualTo(order.price)
  }

  /** A long closes by selling, so at or above its price; a short by buying, at or below. */
  private closeCrossed(order: UserContractOrder, price: Decimal): boolean {
    return order.direction === 'long'
      ? price.greaterThanOrEqualTo(order.price)
      : price.lessThanOrEqualTo(order.price)
  }

  private terms(): ContractTerms {
    return { shareNumber: USDT_PER_SHARE, ...this.state.settings.current.CONTRACT_FEES }
  }

  private closeOrdersOf(positionId: number): UserContractOrder[] {
    return this.orders.filter((order) => order.positionId === positionId && order.status === 'open')
  }

  private reservedShares(positionId: number): Decimal {
    return this.closeOrdersOf(positionId).reduce((sum, order) => sum.plus(order.shares), ZERO)
  }

  private fillClose(
    order: UserContractOrder,
    position: UserPosition,
    price: Decimal,
    announce = false,
  ): UserPosition {
    const margin = marginShare(position.margin, position.shares, order.shares)
    filled(order, price)
    order.margin = text(margin)
    const closed = this.settle(
      position,
      toDecimal(order.shares),
      price,
      'closed',
      announce ? 'closeFilled' : undefined,
    )
    order.fee = closed.closeFee ?? '0'
    return closed
  }

  /** Which exit the price reached, if any. */
  private triggeredBy(
    setting: LossSetting,
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

  /** Opens the order's position; `announce` when a resting order filled as the market moved. */
  private open(order: UserContractOrder, price: Decimal, announce = false): void {
    const fee = toDecimal(order.fee)
    this.state.ledger.apply({
      kind: 'contract',
      note: `order #${order.id} opened at ${text(price)}, fee paid`,
      legs: [
        { userId: order.userId, account: 'contract', coin: QUOTE_COIN, frozen: fee.negated() },
        { pool: 'fees', coin: QUOTE_COIN, amount: fee },
      ],
    })
    filled(order, price)
    if (order.type === 'market') order.price = text(price)
    const position: UserPosition = {
      id: this.nextPositionId(),
      userId: order.userId,
      symbol: order.symbol,
      direction: order.direction,
      leverage: order.leverage,
      shares: order.shares,
      value: text(toDecimal(order.shares).times(USDT_PER_SHARE)),
      openPrice: text(price),
      margin: order.margin,
      closePrice: '0',
      pnl: '0',
      status: 'open',
      createdAt: this.state.clock(),
      openFee: order.fee,
    }
    this.positions.unshift(position)
    if (order.exits) this.keepExits(position, order.exits)
    payFeeRebates(this.state, order.userId, QUOTE_COIN, fee)
    const notice: NoticeFields = {
      kind: 'orderFilled',
      symbol: order.symbol,
      side: order.direction,
      qty: order.shares,
      price: text(price),
    }
    this.publish(position, announce ? notice : undefined)
  }

  /**
   * Closes `closing` shares of a position at a price: all of them settle the position itself, fewer
   * split the closed part off as a closed position of its own, with its share of the margin.
   */
  private settle(
    position: UserPosition,
    closing: Decimal,
    price: Decimal,
    status: 'closed' | 'liquidated',
    announce?: 'closeFilled' | 'takeProfit' | 'stopLoss' | 'liquidated',
  ): UserPosition {
    const shares = toDecimal(position.shares)
    const whole = closing.greaterThanOrEqualTo(shares)
    const value = whole ? toDecimal(position.value) : closing.times(USDT_PER_SHARE)
    const margin = marginShare(position.margin, shares, closing)
    const { pnl, fee, payout } =
      status === 'liquidated'
        ? contractSettlement(margin, margin.negated(), ZERO)
        : contractSettlement(
            margin,
            contractPnl(position.direction, value, position.openPrice, price),
            tradeFee(value, this.state.settings.current.CONTRACT_FEES.closeFee),
          )
    const wallet = { userId: position.userId, account: 'contract' as const, coin: QUOTE_COIN }
    this.state.ledger.apply({
      kind: 'contract',
      note: `position #${position.id} ${whole ? '' : `${text(closing)} shares `}${status} at ${text(price)}`,
      legs: [
        { ...wallet, frozen: margin.negated(), available: payout },
        { pool: 'fees', coin: QUOTE_COIN, amount: fee },
        { pool: 'house', coin: QUOTE_COIN, amount: margin.minus(payout).minus(fee) },
      ],
    })
    let closed = position
    if (whole) {
      for (const order of this.closeOrdersOf(position.id)) order.status = 'cancelled'
    } else {
      const openFee = marginShare(position.openFee ?? '0', shares, closing)
      closed = { ...position, id: this.nextPositionId(), shares: text(closing), value: text(value) }
      closed.margin = text(margin)
      closed.openFee = text(openFee)
      position.openFee = text(toDecimal(position.openFee ?? '0').minus(openFee))
      position.shares = text(shares.minus(closing))
      position.value = text(toDecimal(position.value).minus(value))
      position.margin = text(toDecimal(position.margin).minus(margin))
      this.positions.unshift(closed)
      this.publish(position)
    }
    closed.status = status
    closed.closePrice = text(price)
    closed.pnl = text(pnl)
    closed.closeFee = text(fee)
    closed.closedAt = this.state.clock()
    this.state.profits.add(position.userId, pnl.minus(fee))
    payFeeRebates(this.state, position.userId, QUOTE_COIN, fee)
    const notice: NoticeFields | undefined = announce && {
      kind: announce,
      symbol: position.symbol,
      side: position.direction,
      qty: text(closing),
      price: text(price),
      coin: QUOTE_COIN,
      amount: text(pnl.minus(fee)),
    }
    this.publish(closed, notice)
    return closed
  }

  private pnl(position: UserPosition, price: Decimal): Decimal {
    return contractPnl(position.direction, position.value, position.openPrice, price)
  }

  private ownOpenPosition(userId: string, id: number): UserPosition {
    const position =
      this.positions.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownPosition')
    return position.status === 'open' ? position : refuse('positionNotOpen')
  }

  private view(position: UserPosition): Position {
    const pnl =
      position.status === 'open'
        ? this.pnl(position, this.state.market.price(position.symbol))
        : toDecimal(position.pnl)
    const { userId: _owner, value: _value, ...row } = position
    return {
      ...row,
      pnl: text(pnl),
      liquidationPrice: text(
        liquidationPrice(position.openPrice, position.margin, position.value, position.direction),
      ),
    }
  }

  /** The position's new state to its owner, with the event that changed it when they did not ask. */
  private publish(position: UserPosition, notice?: NoticeFields): void {
    const event = notice && this.state.notices.add(position.userId, notice)
    this.state.publish('POSITION', position.userId, { ...this.view(position), ...(event ? { event } : {}) })
  }
}

/** An order fills whole, at one price. */
function filled(order: UserContractOrder, price: Decimal): void {
  order.status = 'filled'
  order.filledShares = order.shares
  order.filledPrice = text(price)
}

/** What an order asks of its position's exits, or nothing when it names no price. */
function exitsOf(
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
function requireExitsAround(
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

/** The fee shows once paid: an open order's is only held, a close order's not yet known. */
function publicOrder({ userId: _owner, fee, exits: _exits, ...order }: UserContractOrder): ContractOrder {
  return order.status === 'filled' ? { ...order, fee } : order
}

function publicLoss({ userId: _owner, ...setting }: UserLossSetting): LossSetting {
  return setting
}
