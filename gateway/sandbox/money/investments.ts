import type { Decimal } from 'decimal.js'
import { toDecimal, type FinancialRecord, type Holding, type Product } from '@tradegate/shared'
import { refuse } from '../api/refusal'
import { idSequence, type SandboxState } from '../state'
import { AMOUNT_PLACES, text, truncate } from './amounts'

// Fixed-term products: finance products and proxy (delegated) investing. The stake is locked in the
// financial account and returned with its interest, paid by the house, when the term ends.

const DAY_MS = 86_400_000

export type ProductLine = 'finance' | 'proxy'

export const PRODUCTS: Record<ProductLine, readonly Product[]> = {
  finance: [
    {
      id: 1,
      name: 'USDT Flexible 7 days',
      coin: 'usdt',
      days: 7,
      dailyRate: '0.001',
      minAmount: '10',
      maxAmount: '100000',
    },
    {
      id: 2,
      name: 'USDT Fixed 30 days',
      coin: 'usdt',
      days: 30,
      dailyRate: '0.0015',
      minAmount: '100',
      maxAmount: '500000',
    },
    {
      id: 3,
      name: 'USDT Fixed 90 days',
      coin: 'usdt',
      days: 90,
      dailyRate: '0.002',
      minAmount: '500',
      maxAmount: '1000000',
    },
  ],
  proxy: [
    {
      id: 11,
      name: 'Steady quant desk',
      coin: 'usdt',
      days: 15,
      dailyRate: '0.0025',
      minAmount: '50',
      maxAmount: '200000',
    },
    {
      id: 12,
      name: 'Trend following desk',
      coin: 'usdt',
      days: 30,
      dailyRate: '0.003',
      minAmount: '200',
      maxAmount: '500000',
    },
  ],
}

interface UserHolding extends Holding {
  userId: string
  line: ProductLine
  dailyRate: string
  days: number
}

export class Investments {
  private readonly holdings: UserHolding[] = []
  private readonly nextId = idSequence()

  constructor(private readonly state: SandboxState) {}

  subscribe(line: ProductLine, userId: string, productId: number, amount: Decimal): Holding {
    const product = PRODUCTS[line].find((row) => row.id === productId) ?? refuse('unknownProduct')
    if (amount.lessThan(product.minAmount)) refuse('amountBelowMinimum')
    if (amount.greaterThan(product.maxAmount)) refuse('amountAboveMaximum')
    const now = this.state.clock()
    const holding: UserHolding = {
      id: this.nextId(),
      productId,
      name: product.name,
      coin: product.coin,
      amount: text(amount),
      earned: '0',
      status: 'running',
      createdAt: now,
      endsAt: now + product.days * DAY_MS,
      userId,
      line,
      dailyRate: product.dailyRate,
      days: product.days,
    }
    this.state.ledger.apply({
      kind: line,
      note: `${product.name} #${holding.id} subscribed`,
      legs: [
        { userId, account: 'platform', coin: product.coin, available: amount.negated() },
        { userId, account: 'financial', coin: product.coin, frozen: amount },
      ],
    })
    this.holdings.unshift(holding)
    return this.view(holding)
  }

  list(line: ProductLine, userId: string): Holding[] {
    return this.holdings
      .filter((row) => row.line === line && row.userId === userId)
      .map((row) => this.view(row))
  }

  earnings(line: ProductLine, userId: string): FinancialRecord[] {
    return this.state.ledger
      .records(userId)
      .filter((record) => record.kind === line && toDecimal(record.amount).greaterThan(0))
      .map(({ userId: _owner, ...record }) => record)
  }

  onTick(now: number): void {
    for (const holding of this.holdings) {
      if (holding.status === 'running' && now >= holding.endsAt) this.mature(holding)
    }
  }

  private mature(holding: UserHolding): void {
    const amount = toDecimal(holding.amount)
    const interest = this.interest(holding, holding.days)
    this.state.ledger.apply({
      kind: holding.line,
      note: `${holding.name} #${holding.id} matured`,
      legs: [
        { userId: holding.userId, account: 'financial', coin: holding.coin, frozen: amount.negated() },
        { userId: holding.userId, account: 'platform', coin: holding.coin, available: amount.plus(interest) },
        { pool: 'house', coin: holding.coin, amount: interest.negated() },
      ],
    })
    holding.status = 'finished'
    holding.earned = text(interest)
  }

  private interest(holding: UserHolding, days: number): Decimal {
    return truncate(toDecimal(holding.amount).times(holding.dailyRate).times(days), AMOUNT_PLACES)
  }

  private view(holding: UserHolding): Holding {
    const elapsedDays = Math.min(holding.days, Math.floor((this.state.clock() - holding.createdAt) / DAY_MS))
    const earned = holding.status === 'finished' ? holding.earned : text(this.interest(holding, elapsedDays))
    const { userId: _owner, line: _line, dailyRate: _rate, days: _days, ...row } = holding
    return { ...row, earned }
  }
}
