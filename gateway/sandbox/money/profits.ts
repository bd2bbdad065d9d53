import type { Decimal } from 'decimal.js'
import { ZERO } from './amounts'

// Realised trading results per user, for the profit summary.

export class ProfitBook {
  private readonly byUser = new Map<string, Array<{ at: number; amount: Decimal }>>()

  constructor(private readonly clock: () => number) {}

  add(userId: string, amount: Decimal): void {
    const list = this.byUser.get(userId) ?? []
    list.push({ at: this.clock(), amount })
    this.byUser.set(userId, list)
  }

  since(userId: string, from: number): Decimal {
    let total = ZERO
    for (const entry of this.byUser.get(userId) ?? []) if (entry.at >= from) total = total.plus(entry.amount)
    return total
  }
}
