import { useMemo } from 'react'
import { optionOrderCost, toDecimal, type OptionChain } from '@tradegate/shared'
import type { OptionPick } from './chain-types'
import { defaultLimit, quoteOf } from './option-math'

/**
 * The live pricing of a ticket: the picked option's quote, the limit an order carries unless one is
 * typed, and what `quantity` units cost, fee included, also per unit (for the break-even).
 */
export function useTicketPricing(
  chain: OptionChain,
  pick: OptionPick | null,
  spot: string | undefined,
  now: number,
  quantity: string,
) {
  // whole seconds: time decay once a second is plenty
  const second = Math.floor(now / 1000) * 1000
  const quote = useMemo(() => (pick ? quoteOf(pick, spot, chain, second) : null), [pick, spot, chain, second])
  const protectiveLimit = useMemo(
    () => (pick ? defaultLimit(pick, spot, chain, second) : null),
    [pick, spot, chain, second],
  )
  const units = toDecimal(quantity)
  const cost = quote ? optionOrderCost(units, quote.premium, chain) : null
  const perUnit = cost && units.greaterThan(0) ? cost.total.dividedBy(units) : null
  return { second, quote, protectiveLimit, units, cost, perUnit }
}
