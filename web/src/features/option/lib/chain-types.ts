import type { OptionKind, OptionQuote } from '@tradegate/shared'

// What the chain's pieces (table, rows, a strike's greeks) and the order ticket pass between them.

/** The option a trader picked in the chain: its expiry, strike and side. */
export interface OptionPick {
  expiresAt: number
  strike: string
  kind: OptionKind
}

/** One strike of the chain with each side's quote, or null where a side has none. */
export interface ChainRowData {
  strike: string
  call: OptionQuote | null
  put: OptionQuote | null
}
