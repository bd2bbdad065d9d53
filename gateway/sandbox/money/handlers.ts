import type { Handlers } from '../api/handler'
import type { SandboxState } from '../state'
import { balanceHandlers } from './balance-handlers'
import type { Cashier } from './cashier'
import { cashierHandlers } from './cashier-handlers'
import { exchangeHandlers } from './exchange-handlers'
import { investmentHandlers } from './investment-handlers'
import type { Investments } from './investments'
import { recordHandlers } from './record-handlers'

// Balances, transfers, deposits, withdrawals, currency exchange, records and fixed-term products,
// each group in its own module.

export function moneyHandlers(state: SandboxState, cashier: Cashier, investments: Investments) {
  return {
    ...balanceHandlers(state),
    ...cashierHandlers(state, cashier),
    ...exchangeHandlers(state),
    ...recordHandlers(state),
    ...investmentHandlers(investments),
  } satisfies Partial<Handlers>
}
