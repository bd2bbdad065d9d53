import { randomBytes } from 'node:crypto'
import { EXCHANGE_QUOTE_SECONDS, type ExchangeQuote } from '@tradegate/shared'
import { refuse } from '../api/refusal'

// Flash-exchange quotes: a price held for one user for EXCHANGE_QUOTE_SECONDS, then refused.

/** The exchange's fee, a fraction of the converted amount (0.2 %). */
export const EXCHANGE_FEE_RATE = '0.002'

interface HeldQuote extends ExchangeQuote {
  userId: string
}

export class ExchangeQuotes {
  private readonly held = new Map<string, HeldQuote>()

  constructor(private readonly clock: () => number) {}

  /** A new quote at `price` for the user; quotes past their time are dropped as new ones come. */
  issue(userId: string, from: string, to: string, price: string): ExchangeQuote {
    const now = this.clock()
    for (const [id, quote] of this.held) if (quote.expiresAt <= now) this.held.delete(id)
    const quote: HeldQuote = {
      quoteId: randomBytes(12).toString('hex'),
      from,
      to,
      price,
      feeRate: EXCHANGE_FEE_RATE,
      validSeconds: EXCHANGE_QUOTE_SECONDS,
      expiresAt: now + EXCHANGE_QUOTE_SECONDS * 1000,
      userId,
    }
    this.held.set(quote.quoteId, quote)
    const { userId: _owner, ...shown } = quote
    return shown
  }

  /** The price of the user's quote for this pair, used once; refused when unknown, another pair's, or late. */
  redeem(userId: string, quoteId: string, from: string, to: string): string {
    const quote = this.held.get(quoteId)
    if (!quote || quote.userId !== userId || quote.from !== from || quote.to !== to)
      return refuse('unknownQuote')
    this.held.delete(quoteId)
    if (quote.expiresAt <= this.clock()) return refuse('quoteExpired')
    return quote.price
  }
}
