import type { Decimal } from 'decimal.js'
import { toDecimal, type ContractOrder, type LossSetting, type Position } from '@tradegate/shared'
import type { User } from '../accounts/users'
import { refuse } from '../api/refusal'
import { CONTRACT_LEVERAGES, QUOTE_COIN, USDT_PER_SHARE } from '../markets/catalogue'
import { CONTRACT_LIMITS } from '../markets/listings'
import type { SymbolTick } from '../markets/market'
import { AMOUNT_PLACES, ZERO, text, truncate } from '../money/amounts'
import { holdLeg, releaseLeg } from '../money/ledger'
import { idSequence, type SandboxState } from '../state'
import {
  ownRows,
  payFeeRebates,
  positiveAmount,
  requireFundPassword,
  requirePlaces,
  requireTabOpen,
} from './rules'

// Leveraged contracts against the house, in the contract account. A share is USDT_PER_SHARE usdt of
// position value; margin is value / leverage; PnL is value × (price − open) / open, signed by
// direction. A position whose loss reaches its margin is liquidated.

type Direction = 'long' | 'short'

interface UserContractOrder extends ContractOrder {
  userId: string
  /** open fee held with the margin until the order fills */
  fee: string
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
}

const LEVERAGES = CONTRACT_LEVERAGES.split(',').map(Number)
/** Margin may not be taken out below what the highest leverage would need. */
const MIN_MARGIN_RATIO = 1 / Math.max(...LEVERAGES)

export class ContractDesk {
  private readonly orders: UserContractOrder[] = []
  private readonly positions: UserPosition[] = []
  private readonly losses: UserLossSetting[] = []
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

    const value = shares.times(USDT_PER_SHARE)
    const margin = value.dividedBy(input.leverage)
    const fee = truncate(value.times(this.state.settings.current.CONTRACT_FEES.openFee), AMOUNT_PLACES)
    const hold = margin.plus(fee)
    const order: UserContractOrder = {
      id: this.nextOrderId(),
      userId: user.id,
      symbol: input.symbol,
      direction: input.direction,
      type: input.type,
      price: text(price),
      leverage: input.leverage,
      shares: text(shares),
      margin: text(margin),
      status: 'open',
      createdAt: this.state.clock(),
      fee: text(fee),
    }
    this.state.ledger.apply({
      kind: 'contract',
      note: `${input.direction} order #${order.id} margin and fee held`,
      legs: [holdLeg(user.id, 'contract', QUOTE_COIN, hold)],
    })
    this.orders.unshift(order)
    const live = this.state.market.price(input.symbol)
    if (input.type === 'market' || this.crossed(order, live)) this.open(order, live)
    return publicOrder(order)
  }

  cancel(userId: string, id: number): void {
    const order = this.orders.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownOrder')
    if (order.status !== 'open') refuse('orderNotOpen')
    const hold = toDecimal(order.margin).plus(order.fee)
    this.state.ledger.apply({
      kind: 'contract',
      note: `order #${id} cancelled`,
      legs: [releaseLeg(userId, 'contract', QUOTE_COIN, hold)],
    })
    order.status = 'cancelled'
  }

  ordersOf(userId: string, status?: string): ContractOrder[] {
    return ownRows(this.orders, userId, { status }).map(publicOrder)
  }

  positionsOf(userId: string, status?: string): Position[] {
    return ownRows(this.positions, userId, { status }).map((position) => this.view(position))
  }

  stop(userId: string, id: number): Position {
    const position = this.ownOpenPosition(userId, id)
    this.close(position, this.state.market.price(position.symbol), 'closed')
    return this.view(position)
  }

  adjustMargin(userId: string, id: number, money: Decimal, add: boolean): Position {
    const position = this.ownOpenPosition(userId, id)
    if (!money.greaterThan(0)) refuse('amountMustBePositive')
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

  setLoss(userId: string, positionId: number, stopLoss?: Decimal, takeProfit?: Decimal): LossSetting {
    const position = this.ownOpenPosition(userId, positionId)
    if (!stopLoss?.greaterThan(0) && !takeProfit?.greaterThan(0)) refuse('stopLossOrTakeProfitRequired')
    const price = this.state.market.price(position.symbol)
    const long = position.direction === 'long'
    if (
      stopLoss?.greaterThan(0) &&
      (long ? stopLoss.greaterThanOrEqualTo(price) : stopLoss.lessThanOrEqualTo(price))
    ) {
      refuse(long ? 'stopLossMustBeBelowPrice' : 'stopLossMustBeAbovePrice')
    }
    if (
      takeProfit?.greaterThan(0) &&
      (long ? takeProfit.lessThanOrEqualTo(price) : takeProfit.greaterThanOrEqualTo(price))
    ) {
      refuse(long ? 'takeProfitMustBeAbovePrice' : 'takeProfitMustBeBelowPrice')
    }
    for (const row of this.losses) {
      if (row.positionId === positionId && row.status === 'active') row.status = 'cancelled'
    }
    const setting: UserLossSetting = {
      id: this.nextLossId(),
      userId,
      positionId,
      stopLoss: text(stopLoss ?? ZERO),
      takeProfit: text(takeProfit ?? ZERO),
      status: 'active',
    }
    this.losses.unshift(setting)
    return publicLoss(setting)
  }

  cancelLoss(userId: string, id: number): void {
    const setting =
      this.losses.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownLossSetting')
    if (setting.status !== 'active') refuse('lossSettingNotActive')
    setting.status = 'cancelled'
  }

  onTick(ticks: readonly SymbolTick[]): void {
    const prices = new Map(ticks.map((tick) => [tick.symbol, tick.price]))
    for (const order of this.orders) {
      const price = prices.get(order.symbol)
      if (order.status === 'open' && price && this.crossed(order, price)) this.open(order, price)
    }
    for (const position of this.positions) {
      const price = prices.get(position.symbol)
      if (position.status !== 'open' || !price) continue
      if (this.pnl(position, price).lessThanOrEqualTo(toDecimal(position.margin).negated())) {
        this.close(position, price, 'liquidated')
        continue
      }
      const setting = this.losses.find((row) => row.positionId === position.id && row.status === 'active')
      if (setting && this.triggers(setting, position.direction, price)) {
        setting.status = 'triggered'
        this.close(position, price, 'closed')
      }
    }
  }

  private crossed(order: UserContractOrder, price: Decimal): boolean {
    return order.direction === 'long'
      ? price.lessThanOrEqualTo(order.price)
      : price.greaterThanOrEqualTo(order.price)
  }

  private triggers(setting: LossSetting, direction: Direction, price: Decimal): boolean {
    const stop = toDecimal(setting.stopLoss)
    const take = toDecimal(setting.takeProfit)
    if (direction === 'long') {
      return (
        (stop.greaterThan(0) && price.lessThanOrEqualTo(stop)) ||
        (take.greaterThan(0) && price.greaterThanOrEqualTo(take))
      )
    }
    return (
      (stop.greaterThan(0) && price.greaterThanOrEqualTo(stop)) ||
      (take.greaterThan(0) && price.lessThanOrEqualTo(take))
    )
  }

  private open(order: UserContractOrder, price: Decimal): void {
    const fee = toDecimal(order.fee)
    this.state.ledger.apply({
      kind: 'contract',
      note: `order #${order.id} opened at ${text(price)}, fee paid`,
      legs: [
        { userId: order.userId, account: 'contract', coin: QUOTE_COIN, frozen: fee.negated() },
        { pool: 'fees', coin: QUOTE_COIN, amount: fee },
      ],
    })
    order.status = 'filled'
    order.price = text(price)
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
    }
    this.positions.unshift(position)
    payFeeRebates(this.state, order.userId, QUOTE_COIN, fee)
    this.publish(position)
  }

  private close(position: UserPosition, price: Decimal, status: 'closed' | 'liquidated'): void {
    const margin = toDecimal(position.margin)
    let pnl = this.pnl(position, price)
    let fee = ZERO
    let payout = ZERO
    if (status === 'liquidated' || margin.plus(pnl).lessThanOrEqualTo(0)) {
      pnl = margin.negated()
    } else {
      const closeFee = truncate(
        toDecimal(position.value).times(this.state.settings.current.CONTRACT_FEES.closeFee),
        AMOUNT_PLACES,
      )
      fee = closeFee.lessThan(margin.plus(pnl)) ? closeFee : margin.plus(pnl)
      payout = margin.plus(pnl).minus(fee)
    }
    const wallet = { userId: position.userId, account: 'contract' as const, coin: QUOTE_COIN }
    this.state.ledger.apply({
      kind: 'contract',
      note: `position #${position.id} ${status} at ${text(price)}`,
      legs: [
        { ...wallet, frozen: margin.negated(), available: payout },
        { pool: 'fees', coin: QUOTE_COIN, amount: fee },
        { pool: 'house', coin: QUOTE_COIN, amount: margin.minus(payout).minus(fee) },
      ],
    })
    position.status = status
    position.closePrice = text(price)
    position.pnl = text(pnl)
    this.state.profits.add(position.userId, pnl.minus(fee))
    payFeeRebates(this.state, position.userId, QUOTE_COIN, fee)
    this.publish(position)
  }

  private pnl(position: UserPosition, price: Decimal): Decimal {
    const sign = position.direction === 'long' ? 1 : -1
    const change = price.minus(position.openPrice).times(sign)
    return truncate(toDecimal(position.value).times(change).dividedBy(position.openPrice), AMOUNT_PLACES)
  }

  private ownOpenPosition(userId: string, id: number): UserPosition {
    const position =
      this.positions.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownPosition')
    return position.status === 'open' ? position : refuse('positionNotOpen')
  }

  private view(position: UserPosition): Position {
    const open = toDecimal(position.openPrice)
    const ratio = toDecimal(position.margin).dividedBy(position.value)
    const liquidation =
      position.direction === 'long' ? open.times(toDecimal(1).minus(ratio)) : open.times(ratio.plus(1))
    const pnl =
      position.status === 'open'
        ? this.pnl(position, this.state.market.price(position.symbol))
        : toDecimal(position.pnl)
    const { userId: _owner, value: _value, ...row } = position
    return {
      ...row,
      pnl: text(pnl),
      liquidationPrice: text(liquidation.greaterThan(0) ? liquidation.toDecimalPlaces(AMOUNT_PLACES) : ZERO),
    }
  }

  private publish(position: UserPosition): void {
    this.state.publish('POSITION', position.userId, { ...this.view(position) })
  }
}

function publicOrder({ userId: _owner, fee: _fee, ...order }: UserContractOrder): ContractOrder {
  return order
}

function publicLoss({ userId: _owner, ...setting }: UserLossSetting): LossSetting {
  return setting
}
