import type { Decimal } from 'decimal.js'
import { toDecimal, type FinancialRecord, type Holding, type Product } from '@tradegate/shared'
import { refuse } from '../api/refusal'
import { productName, type ProductNameKey } from '../content/product-names'
import { idSequence, type SandboxState } from '../state'
import { AMOUNT_PLACES, ZERO, text, truncate } from './amounts'

// Fixed-term products: finance products and proxy (delegated) investing. The stake is locked in the
// financial account and returned with its interest, paid by the house, when the term ends. Redeemed
// early it comes back by the product's rule: with the interest earned so far (flexible products), or
// less a penalty on the stake and without interest; after the product's settlement time.

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

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
      redeemPenalty: '0',
      settleHours: 0,
    },
    {
      id: 2,
      nameKey: 'usdt30',
      coin: 'usdt',
      days: 30,
      dailyRate: '0.0015',
      minAmount: '100',
      maxAmount: '500000',
      redeemPenalty: '0.01',
      settleHours: 24,
    },
    {
      id: 3,
      nameKey: 'usdt90',
      coin: 'usdt',
      days: 90,
      dailyRate: '0.002',
      minAmount: '500',
      maxAmount: '1000000',
      redeemPenalty: '0.02',
      settleHours: 24,
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
      redeemPenalty: '0.02',
      settleHours: 48,
    },
    {
      id: 12,
      nameKey: 'trendFollowing',
      coin: 'usdt',
      days: 30,
      dailyRate: '0.003',
      minAmount: '200',
      maxAmount: '500000',
      redeemPenalty: '0.03',
      settleHours: 48,
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
  redeemPenalty: string
  settleHours: number
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
      payout: '0',
      settlesAt: 0,
      userId,
      line,
      dailyRate: product.dailyRate,
      days: product.days,
      redeemPenalty: product.redeemPenalty,
      settleHours: product.settleHours,
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

  /**
   * Ends a running holding before its term: a product without a penalty pays the interest earned so
   * far, one with a penalty keeps back that share of the stake and pays no interest. The payout
   * reaches the platform account after the product's settlement time (at once when it has none).
   */
  redeem(line: ProductLine, userId: string, id: number, language: string | undefined): Holding {
    const holding =
      this.holdings.find((row) => row.line === line && row.userId === userId && row.id === id) ??
      refuse('unknownHolding')
    if (holding.status !== 'running') refuse('holdingNotRunning')
    const now = this.state.clock()
    const stake = toDecimal(holding.amount)
    const penalty = truncate(stake.times(holding.redeemPenalty), AMOUNT_PLACES)
    const interest = penalty.isZero() ? this.interest(holding, this.elapsedDays(holding, now)) : ZERO
    holding.earned = text(interest)
    holding.payout = text(stake.minus(penalty).plus(interest))
    holding.status = 'redeeming'
    holding.settlesAt = now + holding.settleHours * HOUR_MS
    if (holding.settleHours === 0) this.settle(holding)
    return this.view(holding, language)
  }

  onTick(now: number): void {
    for (const holding of this.holdings) {
      if (holding.status === 'running' && now >= holding.endsAt) this.mature(holding)
      if (holding.status === 'redeeming' && now >= holding.settlesAt) this.settle(holding)
    }
  }

  private mature(holding: UserHolding): void {
    const interest = this.interest(holding, holding.days)
    holding.earned = text(interest)
    holding.payout = text(toDecimal(holding.amount).plus(interest))
    this.payOut(holding, 'matured')
    holding.status = 'finished'
  }

  private settle(holding: UserHolding): void {
    this.payOut(holding, 'redeemed')
    holding.status = 'redeemed'
  }

  /** Unlocks the stake and pays the payout; the house takes the difference (interest out, penalty in). */
  private payOut(holding: UserHolding, event: 'matured' | 'redeemed'): void {
    const stake = toDecimal(holding.amount)
    const payout = toDecimal(holding.payout)
    this.state.ledger.apply({
      kind: holding.line,
      note: `${productName(holding.nameKey, 'en')} #${holding.id} ${event}`,
      legs: [
        { userId: holding.userId, account: 'financial', coin: holding.coin, frozen: stake.negated() },
        { userId: holding.userId, account: 'platform', coin: holding.coin, available: payout },
        { pool: 'house', coin: holding.coin, amount: stake.minus(payout) },
      ],
    })
  }

  private elapsedDays(holding: UserHolding, now: number): number {
    return Math.min(holding.days, Math.floor((now - holding.createdAt) / DAY_MS))
  }

  private interest(holding: UserHolding, days: number): Decimal {
    return truncate(toDecimal(holding.amount).times(holding.dailyRate).times(days), AMOUNT_PLACES)
  }

  private view(holding: UserHolding, language: string | undefined): Holding {
    const earned =
      holding.status === 'running'
        ? text(this.interest(holding, this.elapsedDays(holding, this.state.clock())))
        : holding.earned
    const {
      userId: _owner,
      line: _line,
      dailyRate: _rate,
      days: _days,
      redeemPenalty: _penalty,
      settleHours: _settle,
      nameKey,
      ...row
    } = holding
    return { ...row, name: productName(nameKey, language), earned }
  }
}
