import { useTranslation } from '../../../lib/i18n'
import type { BookRow } from '../lib/order-book'

const WIDTH = 300
const HEIGHT = 90

/** Cumulative bids (left, rising towards the mid) and asks (right) as two step areas. Numbers only for drawing. */
export function DepthChart({ bids, asks }: { bids: readonly BookRow[]; asks: readonly BookRow[] }) {
  const { t } = useTranslation()
  const low = Number(bids.at(-1)?.price ?? 0)
  const high = Number(asks.at(-1)?.price ?? 0)
  const deepest = Math.max(Number(bids.at(-1)?.cumulative ?? 0), Number(asks.at(-1)?.cumulative ?? 0))
  if (bids.length === 0 || asks.length === 0 || high <= low || deepest <= 0) return null
  const x = (price: string) => ((Number(price) - low) / (high - low)) * WIDTH
  const y = (total: unknown) => HEIGHT - (Number(total) / deepest) * (HEIGHT - 4)
  const area = (rows: readonly BookRow[], edge: number) => {
    let path = `M${x(rows[0]?.price ?? '0')},${HEIGHT}`
    for (const row of rows) path += ` L${x(row.price)},${y(row.cumulative)}`
    return `${path} L${edge},${y(rows.at(-1)?.cumulative)} L${edge},${HEIGHT} Z`
  }
  return (
    <svg
      className="depth-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={t('desk.depth')}
      data-testid="depth-chart"
    >
      <path className="depth-bids" d={area(bids, 0)} />
      <path className="depth-asks" d={area(asks, WIDTH)} />
    </svg>
  )
}
