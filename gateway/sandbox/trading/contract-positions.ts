import type { Decimal } from 'decimal.js'
import {
  MONEY_PLACES,
  contractPnl,
  contractSettlement,
  fundingPayment,
  liquidationPrice,
  marginShare,
  mergedEntryPrice,
  toDecimal,
  tradeFee,
  type CloseReason,
  type ContractTerms,
  type LossSetting,
  type Position,
  type TriggerBy,
} from '@tradegate/shared'
import type { NoticeFields } from '../accounts/notices'
import { refuse } from '../api/refusal'
import { QUOTE_COIN, USDT_PER_SHARE } from '../markets/catalogue'
import { FUNDING_INTERVAL_MS, nextFundingTime } from '../markets/reference-prices'
import { ZERO, text } from '../money/amounts'
import { holdLeg } from '../money/ledger'
import { idSequence, type SandboxState } from '../state'
import {
  maxLeverageOf,
  exitReached,
  requireExitsAround,
  type Direction,
  type Exits,
  type UserContractOrder,
} from './contract-rules'
import { ownRows, payFeeRebates, requirePlaces } from './rules'

// The contract positions: one open position per user, pair and side that every fill joins, their
// take-profits and stop-losses, liquidation at the mark price, closes, and funding. Every close is a
// filled order in the order history with its reason and the PnL it booked: a close order the user
// placed is filled, and a close without one (at the market, an exit reached, a liquidation) is written
// as a filled order of its own.

interface UserPosition extends Omit<Position, 'pnl' | 'liquidationPrice' | 'markPrice'> {
  userId: string
  value: string
  pnl: string
}

interface UserLossSetting extends LossSetting {
  userId: string
}

/** How a close is made. */
interface CloseHow {
  reason: CloseReason
  /** the user's close order it fills; without one the close is written as a filled order of its own */
  order?: UserContractOrder
  /** the take-profit or stop-loss price reached, and the price it watched */
  exit?: { price: string; by: TriggerBy }
  /** the owner is told: a close they did not ask for just now (an answer tells them of the others) */
  announce: boolean
}

/** The notice each reason raises. */
const NOTICE_OF: Record<CloseReason, 'closeFilled' | 'takeProfit' | 'stopLoss' | 'liquidated'> = {
  manual: 'closeFilled',
  takeProfit: 'takeProfit',
  stopLoss: 'stopLoss',
  liquidation: 'liquidated',
}

export class ContractPositions {
  private readonly positions: UserPosition[] = []
  private readonly losses: UserLossSetting[] = []
  private readonly nextPositionId = idSequence()
  private readonly nextLossId = idSequence()
  /** the sandbox time funding was last settled up to */
  private fundedTo: number

  constructor(
    private readonly state: SandboxState,
    private readonly terms: () => ContractTerms,
    private readonly closeOrdersOf: (positionId: number) => UserContractOrder[],
    /** keeps a close made without an order in the order history, under a new order id */
    private readonly keepCloseRow: (row: Omit<UserContractOrder, 'id'>) => void,
  ) {
    this.fundedTo = state.clock()
  }

  list(userId: string, status?: string): Position[] {
    return ownRows(this.positions, userId, { status }).map((position) => this.view(position))
  }

  ownOpen(userId: string, id: number): UserPosition {
    const position =
      this.positions.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownPosition')
    return position.status === 'open' ? position : refuse('positionNotOpen')
  }

  openOf(userId: string, symbol: string, direction: Direction): UserPosition | undefined {
    return this.positions.find(
      (row) =>
        row.userId === userId &&
        row.symbol === symbol &&
        row.direction === direction &&
        row.status === 'open',
    )
  }

  /** A fill joins the open position of its side, so it must carry that position's leverage. */
  requireSameLeverage(userId: string, symbol: string, direction: Direction, leverage: number): void {
    const position = this.openOf(userId, symbol, direction)
    if (position && position.leverage !== leverage) refuse('leverageDiffersFromPosition')
  }

  /** `shares` must not exceed what the position has free of its other close orders (`except` not counted). */
  requireFreeShares(positionId: number, shares: Decimal, except?: UserContractOrder): void {
    const position = this.positions.find((row) => row.id === positionId)!
    const reserved = this.closeOrdersOf(positionId)
      .filter((order) => order !== except)
      .reduce((sum, order) => sum.plus(order.shares), ZERO)
    if (shares.greaterThan(toDecimal(position.shares).minus(reserved))) refuse('sharesAboveOpen')
  }

  marginOf(position: UserPosition, shares: string): Decimal {
    return marginShare(position.margin, position.shares, shares)
  }

  /** The part of `amount` that `part` of `whole` carry, truncated like every derived amount. */
  share(amount: string, whole: string, part: Decimal): Decimal {
    return marginShare(amount, whole, part)
  }

  /** A close order for `shares` of the position (all its free shares when null); the caller prices and keeps it. */
  closeOrder(position: UserPosition, shares: Decimal | null, id: number, now: number): UserContractOrder {
    const reserved = this.closeOrdersOf(position.id).reduce((sum, order) => sum.plus(order.shares), ZERO)
    const closing = shares ?? toDecimal(position.shares).minus(reserved)
    if (!closing.greaterThan(0)) refuse('sharesAboveOpen')
    this.requireFreeShares(position.id, closing)
    return {
      id,
      userId: position.userId,
      symbol: position.symbol,
      direction: position.direction,
      type: 'limit',
      price: '0',
      leverage: position.leverage,
      shares: text(closing),
      margin: text(this.marginOf(position, text(closing))),
      status: 'open',
      createdAt: now,
      fee: '0',
      positionId: position.id,
      filledShares: '0',
      filledPrice: '',
    }
  }

  /** Closes all of a position at the market, or `shares` of it when given. */
  closeAtMarket(position: UserPosition, sharesText?: string): Position {
    let closing = toDecimal(position.shares)
    if (sharesText !== undefined) {
      closing = toDecimal(sharesText)
      if (!closing.greaterThan(0)) refuse('sharesMustBePositive')
      if (!closing.isInteger()) refuse('sharesMustBeWhole')
      this.requireFreeShares(position.id, closing)
    }
    const market = this.state.market.price(position.symbol)
    return this.view(this.settle(position, closing, market, { reason: 'manual', announce: false }))
  }

  /** Fills a close order at a price: its shares, or what is left of the position when that is less. */
  fillClose(order: UserContractOrder, price: Decimal, announce = false): Position {
    const position = this.positions.find((row) => row.id === order.positionId)!
    const closing = smaller(toDecimal(order.shares), toDecimal(position.shares))
    return this.view(this.settle(position, closing, price, { reason: 'manual', order, announce }))
  }

  /** Opens `shares` of an order at a price: a new position, or joined to the open one of its side. */
  open(order: UserContractOrder, price: Decimal, shares: Decimal, announce: boolean): void {
    const fee = toDecimal(order.fee)
    this.state.ledger.apply({
      kind: 'contract',
      note: `order #${order.id} ${text(shares)} shares opened at ${text(price)}, fee paid`,
      legs: [
        { userId: order.userId, account: 'contract', coin: QUOTE_COIN, frozen: fee.negated() },
        { pool: 'fees', coin: QUOTE_COIN, amount: fee },
      ],
    })
    const value = shares.times(USDT_PER_SHARE)
    const joined = this.openOf(order.userId, order.symbol, order.direction)
    const position = joined ?? this.newPosition(order, price)
    if (joined) {
      joined.openPrice = text(mergedEntryPrice(joined.value, joined.openPrice, value, price))
      joined.value = text(toDecimal(joined.value).plus(value))
      joined.shares = text(toDecimal(joined.shares).plus(shares))
      joined.margin = text(toDecimal(joined.margin).plus(order.margin))
      joined.openFee = text(toDecimal(joined.openFee ?? '0').plus(fee))
    } else {
      Object.assign(position, {
        shares: text(shares),
        value: text(value),
        margin: order.margin,
        openFee: order.fee,
      })
      this.positions.unshift(position)
    }
    if (order.exits) this.keepExits(position, order.exits)
    payFeeRebates(this.state, order.userId, QUOTE_COIN, fee)
    const notice: NoticeFields = {
      kind: 'orderFilled',
      symbol: order.symbol,
      side: order.direction,
      qty: text(shares),
      price: text(price),
    }
    this.publish(position, announce ? notice : undefined)
  }

  adjustMargin(userId: string, id: number, money: Decimal, add: boolean): Position {
    const position = this.ownOpen(userId, id)
    if (!money.greaterThan(0)) refuse('amountMustBePositive')
    requirePlaces(money, MONEY_PLACES, 'amountPrecisionExceeded')
    const margin = toDecimal(position.margin)
    const next = add ? margin.plus(money) : margin.minus(money)
    if (!add) {
      const loss = this.pnl(position, this.state.market.markPrice(position.symbol)).negated()
      // margin may not be taken out below what the pair's highest leverage would need
      const highest = maxLeverageOf(this.state.market.instrument(position.symbol))
      const least = toDecimal(position.value).dividedBy(highest)
      if (next.lessThan(least) || next.lessThanOrEqualTo(loss)) refuse('marginTooLow')
    }
    this.state.ledger.apply({
      kind: 'contract',
      note: `position #${id} margin ${add ? 'added' : 'taken out'}`,
      legs: [holdLeg(userId, 'contract', QUOTE_COIN, add ? money : money.negated())],
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
    const position = this.ownOpen(userId, positionId)
    if (!stopLoss?.greaterThan(0) && !takeProfit?.greaterThan(0)) refuse('stopLossOrTakeProfitRequired')
    const price = this.state.market.price(position.symbol)
    requireExitsAround(position.direction, price, stopLoss ?? ZERO, takeProfit ?? ZERO)
    return publicLoss(
      this.keepExits(position, { stopLoss: stopLoss ?? ZERO, takeProfit: takeProfit ?? ZERO, triggerBy }),
    )
  }

  cancelLoss(userId: string, id: number): void {
    const setting =
      this.losses.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownLossSetting')
    if (setting.status !== 'active') refuse('lossSettingNotActive')
    setting.status = 'cancelled'
  }

  /** Funding falls due, then each open position of a pair that moved is liquidated at its mark or exits. */
  onTick(prices: ReadonlyMap<string, Decimal>): void {
    this.settleFunding()
    for (const position of [...this.positions]) {
      const price = prices.get(position.symbol)
      if (position.status !== 'open' || !price) continue
      const mark = this.state.market.markPrice(position.symbol)
      if (this.pnl(position, mark).lessThanOrEqualTo(toDecimal(position.margin).negated())) {
        this.settle(position, toDecimal(position.shares), mark, { reason: 'liquidation', announce: true })
        continue
      }
      const setting = this.losses.find((row) => row.positionId === position.id && row.status === 'active')
      const trigger =
        setting && exitReached(setting, position.direction, setting.triggerBy === 'mark' ? mark : price)
      if (setting && trigger) {
        setting.status = 'triggered'
        this.settle(position, toDecimal(position.shares), price, {
          reason: trigger,
          exit: { price: setting[trigger], by: setting.triggerBy ?? 'last' },
          announce: true,
        })
      }
    }
  }

  view(position: UserPosition): Position {
    const open = position.status === 'open'
    const mark = this.state.market.markPrice(position.symbol)
    const { userId: _owner, value: _value, ...row } = position
    return {
      ...row,
      pnl: text(open ? this.pnl(position, mark) : toDecimal(position.pnl)),
      liquidationPrice: text(
        liquidationPrice(position.openPrice, position.margin, position.value, position.direction),
      ),
      ...(open ? { markPrice: text(mark) } : {}),
    }
  }

  /** Every funding time passed since the last tick charges or pays each position open before it. */
  private settleFunding(): void {
    const now = this.state.clock()
    for (let at = nextFundingTime(this.fundedTo); at <= now; at += FUNDING_INTERVAL_MS) {
      for (const position of this.positions) {
        if (position.status === 'open' && position.createdAt < at) this.fund(position)
      }
    }
    this.fundedTo = now
  }

  /** Funding in isolated margin: paid out of, or into, the position's margin; never more than it holds. */
  private fund(position: UserPosition): void {
    const reference = this.state.market.reference(position.symbol)
    if (!reference) return
    const due = fundingPayment(
      position.direction,
      position.value,
      position.openPrice,
      reference.markPrice,
      reference.fundingRate,
    )
    const margin = toDecimal(position.margin)
    const payment = due.plus(margin).lessThan(0) ? margin.negated() : due
    if (payment.isZero()) return
    this.state.ledger.apply({
      kind: 'contract',
      note: `position #${position.id} funding at ${text(reference.fundingRate)}`,
      legs: [
        { userId: position.userId, account: 'contract', coin: QUOTE_COIN, frozen: payment },
        { pool: 'house', coin: QUOTE_COIN, amount: payment.negated() },
      ],
    })
    position.margin = text(margin.plus(payment))
    position.funding = text(toDecimal(position.funding ?? '0').plus(payment))
    this.state.profits.add(position.userId, payment)
    this.publish(position, {
      kind: 'funding',
      symbol: position.symbol,
      side: position.direction,
      qty: position.shares,
      price: text(reference.markPrice),
      coin: QUOTE_COIN,
      amount: text(payment),
    })
  }

  private newPosition(order: UserContractOrder, price: Decimal): UserPosition {
    return {
      id: this.nextPositionId(),
      userId: order.userId,
      symbol: order.symbol,
      direction: order.direction,
      leverage: order.leverage,
      shares: '0',
      value: '0',
      openPrice: text(price),
      margin: '0',
      closePrice: '0',
      pnl: '0',
      status: 'open',
      createdAt: this.state.clock(),
      openFee: '0',
    }
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
   * Closes `closing` shares of a position at a price: all of them settle the position itself, fewer
   * split the closed part off as a closed position of its own, with its share of the margin. The
   * order it fills, or a new one, records the fill in the order history.
   */
  private settle(position: UserPosition, closing: Decimal, price: Decimal, how: CloseHow): UserPosition {
    const status = how.reason === 'liquidation' ? 'liquidated' : 'closed'
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
            tradeFee(value, this.terms().closeFee),
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
    const closed = whole ? position : this.splitOff(position, closing, value, margin)
    if (whole) for (const order of this.closeOrdersOf(position.id)) order.status = 'cancelled'
    // one moment for the position's close and its order row, so the two histories name the same time
    const closedAt = this.state.clock()
    Object.assign(closed, {
      status,
      closePrice: text(price),
      pnl: text(pnl),
      closeFee: text(fee),
      closedAt,
    })
    this.state.profits.add(position.userId, pnl.minus(fee))
    payFeeRebates(this.state, position.userId, QUOTE_COIN, fee)
    this.recordFill(position, how, closedAt, {
      status: 'filled',
      shares: text(closing),
      filledShares: text(closing),
      filledPrice: text(price),
      margin: text(margin),
      fee: text(fee),
      closeReason: how.reason,
      pnl: text(pnl),
    })
    const notice: NoticeFields | undefined = how.announce
      ? {
          kind: NOTICE_OF[how.reason],
          symbol: position.symbol,
          side: position.direction,
          qty: text(closing),
          price: text(price),
          coin: QUOTE_COIN,
          amount: text(pnl.minus(fee)),
        }
      : undefined
    this.publish(closed, notice)
    return closed
  }

  /**
   * A close's fill on the order it filled, or on a filled order of its own for a close made without
   * one: a market order, or for an exit reached the stop-market it acts as, at the time of the close.
   */
  private recordFill(
    position: UserPosition,
    how: CloseHow,
    at: number,
    fill: Pick<
      UserContractOrder,
      'status' | 'shares' | 'filledShares' | 'filledPrice' | 'margin' | 'fee' | 'closeReason' | 'pnl'
    >,
  ): void {
    if (how.order) {
      // a close order's shares stay what it asked for; what filled may be less
      const { shares: _asked, ...filled } = fill
      Object.assign(how.order, filled)
      if (how.order.type === 'market' || how.order.type === 'stopMarket') how.order.price = fill.filledPrice!
      return
    }
    this.keepCloseRow({
      userId: position.userId,
      symbol: position.symbol,
      direction: position.direction,
      type: how.exit ? 'stopMarket' : 'market',
      price: fill.filledPrice!,
      leverage: position.leverage,
      createdAt: at,
      positionId: position.id,
      ...(how.exit ? { triggerPrice: how.exit.price, triggerBy: how.exit.by, triggeredAt: at } : {}),
      ...fill,
    })
  }

  /** The closed part of a partly closed position, as a row of its own; the open part keeps the rest. */
  private splitOff(position: UserPosition, closing: Decimal, value: Decimal, margin: Decimal): UserPosition {
    const shares = toDecimal(position.shares)
    const openFee = marginShare(position.openFee ?? '0', shares, closing)
    const closed: UserPosition = {
      ...position,
      id: this.nextPositionId(),
      shares: text(closing),
      value: text(value),
      margin: text(margin),
      openFee: text(openFee),
    }
    delete closed.funding
    position.openFee = text(toDecimal(position.openFee ?? '0').minus(openFee))
    position.shares = text(shares.minus(closing))
    position.value = text(toDecimal(position.value).minus(value))
    position.margin = text(toDecimal(position.margin).minus(margin))
    this.positions.unshift(closed)
    this.publish(position)
    return closed
  }

  private pnl(position: UserPosition, price: Decimal): Decimal {
    return contractPnl(position.direction, position.value, position.openPrice, price)
  }

  /** The position's new state to its owner, with the event that changed it when they did not ask. */
  private publish(position: UserPosition, notice?: NoticeFields): void {
    const event = notice && this.state.notices.add(position.userId, notice)
    this.state.publish('POSITION', position.userId, { ...this.view(position), ...(event ? { event } : {}) })
  }
}

function smaller(a: Decimal, b: Decimal): Decimal {
  return a.lessThan(b) ? a : b
}

function publicLoss({ userId: _owner, ...setting }: UserLossSetting): LossSetting {
  return setting
}
