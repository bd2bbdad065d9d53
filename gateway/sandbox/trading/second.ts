import { toDecimal, type Period, type SecondOrder } from '@tradegate/shared'
import type { User } from '../accounts/users'
import { refuse } from '../api/refusal'
import { QUOTE_COIN } from '../markets/catalogue'
import { AMOUNT_PLACES, ZERO, text, truncate } from '../money/amounts'
import { holdLeg } from '../money/ledger'
import { idSequence, type SandboxState } from '../state'
import { ownRows, positiveAmount, requireFundPassword, requireTabOpen } from './rules'

// Second contracts: the stake is held for the period, then settled by the feed price at period end.
// Up wins when the closing price is above the opening price, down when below; equal is a draw.

interface UserSecondOrder extends SecondOrder {
  userId: string
}

export interface SecondSubmission {
  symbol: string
  periodId: number
  direction: 'up' | 'down'
  amount: string | number
  fundPwd?: string
}

export class SecondDesk {
  private readonly orders: UserSecondOrder[] = []
  private readonly nextId = idSequence()

  constructor(
    private readonly state: SandboxState,
    private readonly periods: readonly Period[],
  ) {}

  create(user: User, input: SecondSubmission): SecondOrder {
    requireTabOpen(this.state, 'SecondContract', 'secondContractClosed')
    if (!this.state.market.has(input.symbol)) refuse('unknownSymbol')
    const period = this.periods.find((row) => row.id === input.periodId) ?? refuse('unknownPeriod')
    if (period.symbol !== input.symbol) refuse('periodNotForSymbol')
    requireFundPassword(
      this.state,
      user,
      this.state.settings.current.FUND_PASSWORD_SETTING.second,
      input.fundPwd,
    )
    const amount = positiveAmount(input.amount)
    if (amount.lessThan(period.minAmount)) refuse('amountBelowMinimum')
    if (amount.greaterThan(period.maxAmount)) refuse('amountAboveMaximum')

    const now = this.state.clock()
    const order: UserSecondOrder = {
      id: this.nextId(),
      userId: user.id,
      symbol: input.symbol,
      direction: input.direction,
      amount: text(amount),
      seconds: period.seconds,
      rate: period.rate,
      openPrice: text(this.state.market.price(input.symbol)),
      closePrice: '0',
      profit: '0',
      status: 'open',
      createdAt: now,
      settleAt: now + period.seconds * 1000,
    }
    this.state.ledger.apply({
      kind: 'second',
      note: `second contract #${order.id} stake held`,
      legs: [holdLeg(user.id, 'platform', QUOTE_COIN, amount)],
    })
    this.orders.unshift(order)
    return publicOrder(order)
  }

  list(userId: string, filter: { status?: string; symbol?: string }): SecondOrder[] {
    return ownRows(this.orders, userId, filter).map(publicOrder)
  }

  /** Settles every order whose period has ended, at the price the feed shows now. */
  onTick(now: number): void {
    for (const order of this.orders) {
      if (order.status === 'open' && order.settleAt <= now) this.settle(order)
    }
  }

  private settle(order: UserSecondOrder): void {
    const close = this.state.market.price(order.symbol)
    const open = toDecimal(order.openPrice)
    const amount = toDecimal(order.amount)
    const outcome = close.equals(open)
      ? 'draw'
      : close.greaterThan(open) === (order.direction === 'up')
        ? 'win'
        : 'lose'
    const profit =
      outcome === 'win'
        ? truncate(amount.times(order.rate), AMOUNT_PLACES)
        : outcome === 'lose'
          ? amount.negated()
          : ZERO
    this.state.ledger.apply({
      kind: 'second',
      note: `second contract #${order.id} ${outcome}`,
      legs: [
        {
          userId: order.userId,
          account: 'platform',
          coin: QUOTE_COIN,
          frozen: amount.negated(),
          available: amount.plus(profit),
        },
        { pool: 'house', coin: QUOTE_COIN, amount: profit.negated() },
      ],
    })
    order.status = outcome
    order.closePrice = text(close)
    order.profit = text(profit)
    this.state.profits.add(order.userId, profit)
    const event = this.state.notices.add(order.userId, {
      kind: 'secondSettled',
      symbol: order.symbol,
      side: order.direction,
      qty: text(amount),
      price: text(close),
      coin: QUOTE_COIN,
      amount: text(profit),
      outcome,
    })
    this.state.publish('SETTLEMENT', order.userId, { ...publicOrder(order), event })
  }
}

function publicOrder({ userId: _owner, ...order }: UserSecondOrder): SecondOrder {
  return order
}
