import type { OptionKind } from '@tradegate/shared'

/**
 * Columns of one side of the chain, read from the strike outwards: bid and ask (with the implied
 * volatility under it) beside it, then the greeks.
 */
export const COLUMNS = ['bid', 'ask', 'delta', 'gamma', 'theta', 'vega'] as const
export type Column = (typeof COLUMNS)[number]

/** Narrower than this, a chain shows one side at a time behind a switch (a phone). */
export const BOTH_SIDES_MIN_PX = 540
/** From this width on, gamma, theta and vega have columns of their own beside both sides' prices. */
export const EVERY_GREEK_MIN_PX = 1100

export interface ChainLayout {
  /** the sides drawn, calls before puts */
  sides: readonly OptionKind[]
  /** each side's columns, from the strike outwards */
  columns: readonly Column[]
}

/**
 * What a chain `width` px wide draws: both sides with bid, ask and delta, one (`shown`) where both do
 * not fit, and every greek where there is room. A strike's own greeks open under its row at any width.
 * Unmeasured, it draws both sides, as most screens have room for.
 */
export function chainLayout(width: number | null, shown: OptionKind): ChainLayout {
  const narrow = width !== null && width < BOTH_SIDES_MIN_PX
  const wide = width !== null && width >= EVERY_GREEK_MIN_PX
  // the same arrays from one render to the next, so what is worked out from them is kept
  return { sides: narrow ? ONE_SIDE[shown] : BOTH_SIDES, columns: wide ? COLUMNS : PRICES_AND_DELTA }
}

const BOTH_SIDES: readonly OptionKind[] = ['call', 'put']
const ONE_SIDE: Record<OptionKind, readonly OptionKind[]> = { call: ['call'], put: ['put'] }
const PRICES_AND_DELTA: readonly Column[] = ['bid', 'ask', 'delta']

/** The columns of a side in the order they are drawn: calls mirror puts around the strike. */
export function drawn(kind: OptionKind, layout: ChainLayout): readonly Column[] {
  return kind === 'call' ? [...layout.columns].reverse() : layout.columns
}
