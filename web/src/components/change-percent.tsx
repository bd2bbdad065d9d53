import { directionOf } from '../lib/market-rows'

/**
 * A 24 h change such as "1.25" or "-0.40" as "+1.25%" or "-0.40%", coloured by its direction;
 * `pill` sets it on the rounded background the market lists use.
 */
export function ChangePercent({ change, pill = false }: { change: string; pill?: boolean }) {
  const direction = directionOf(change)
  return (
    <span className={`${pill ? 'change-pill ' : ''}num ${direction}`}>
      {direction === 'up' ? '+' : ''}
      {change}%
    </span>
  )
}
