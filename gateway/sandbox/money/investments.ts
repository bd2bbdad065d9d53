import type { Decimal } from 'decimal.js'
import { toDecimal, type FinancialRecord, type Holding, type Product } from '@tradegate/shared'
import { refuse } from '../api/refusal'
import { idSequence, type SandboxState } from '../state'
import { productName, type ProductNameKey } from '../content/product-names'
import { AMOUNT_PLACES, text, truncate } from './amounts'

// Fixed-term products: finance products and proxy (delegated) investing. The stake is locked in the
// financial account and returned with its interest, paid by the house, when the term ends.

const DAY_MS = 86_400_000

export type ProductLine = 'finance' | 'proxy'

/** A product as the sandbox keeps it: its name is a key, answered in the request's language. */
type ProductDefinition = Omit<Product, 'name'> & { nameKey: ProductNameKey }

const PRODUCTS: Record<ProductLine, readonly ProductDefinition[]> = {
  finance: [
    {
      id: 1,
      nameKey: 'usdt7',
      coin: 'usdt',
      days: 7,
      dailyRate: '0.001',
      minAmount: '10',
      maxAmount: '100000',
    },
    {
      id: 2,
      nameKey: 'usdt30',
      coin: 'usdt',
      days: 30,
      dailyRate: '0.0015',
      minAmount: '100',
      maxAmount: '500000',
    },
    {
      id: 3,
      nameKey: 'usdt90',
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
      nameKey: 'steadyQuant',
      coin: 'usdt',
      days: 15,
      dailyRate: '0.0025',
      minAmount: '50',
      maxAmount: '200000',
    },
    {
      id: 12,
      nameKey: 'trendFollowing',
      coin: 'usdt',
      days: 30,
      dailyRate: '0.003',
      minAmount: '200',
      maxAmount: '500000',
    },
  ],
}

/** The products of a line, named in `language`. */
export function productsIn(line: ProductLine, language: string | undefined): Product[] {
  return PRODUCTS[line].map(({ nameKey, ...product }) => ({
    ...product,
    name: productName(nameKey, language),
  }))
}

interface UserHolding extends Omit<Holding, 'name'> {
  nameKey: ProductNameKey
  userId: string
  line: ProductLine
  dailyRate: string
  days: number
}

export class Investments {
  private readonly holdings: UserHolding[] = []
  private readonly nextId = idSequence()

  constructor(private readonly state: SandboxState) {}

  subscribe(
    line: ProductLine,
    userId: string,
    productId: number,
    amount: Decimal,
    language: string | undefined,
  ): Holding {
    const product = PRODUCTS[line].find((row) => row.id === productId) ?? refuse('unknownProduct')
    if (amount.lessThan(product.minAmount)) refuse('amountBelowMinimum')
    if (amount.greaterThan(product.maxAmount)) refuse('amountAboveMaximum')
    const now = this.state.clock()
    const holding: UserHolding = {
      id: this.nextId(),
      productId,
      nameKey: product.nameKey,
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
      note: `${productName(product.nameKey, 'en')} #${holding.id} subscribed`,
      legs: [
        { userId, account: 'platform', coin: product.coin, available: amount.negated() },
        { userId, account: 'financial', coin: product.coin, frozen: amount },
      ],
    })
    this.holdings.unshift(holding)
    return this.view(holding, language)
  }

  list(line: ProductLine, userId: string, language: string | undefined): Holding[] {
    return this.holdings
      .filter((row) => row.line === line && row.userId === userId)
      .map((row) => this.view(row, language))
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
      note: `${productName(holding.nameKey, 'en')} #${holding.id} matured`,
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

  private view(holding: UserHolding, language: string | undefined): Holding {
    const elapsedDays = Math.min(holding.days, Math.floor((this.state.clock() - holding.createdAt) / DAY_MS))
    const earned = holding.status === 'finished' ? holding.earned : text(this.interest(holding, elapsedDays))
    const { userId: _owner, line: _line, dailyRate: _rate, days: _days, nameKey, ...row } = holding
    return { ...row, name: productName(nameKey, language), earned }
  }
}
