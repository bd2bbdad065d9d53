import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'wouter'
import type { PlayingKey } from '@tradegate/shared'
import { NoData } from './no-data'
import { useFormatters } from '../lib/use-formatters'
import { directionOf, type MarketRow, type SortKey, type SortOrder } from '../lib/market-rows'
import { tradeHref } from '../lib/trade-link'
import { useStaleMark } from './feed-status'

function SortButton({
  column,
  label,
  order,
  onSort,
}: {
  column: SortKey
  label: string
  order: SortOrder | null
  onSort: (key: SortKey) => void
}) {
  const active = order?.key === column
  const arrow = active ? (order.direction === 'desc' ? '↓' : '↑') : '↕'
  return (
    <button
      type="button"
      className="sort-button"
      onClick={() => onSort(column)}
      data-sort={column}
      aria-pressed={active}
    >
      {label} <span className={active ? 'sort-arrow active' : 'sort-arrow'}>{arrow}</span>
    </button>
  )
}

/** Pairs with live price, 24 h change and volume; tapping a row opens trading on that pair. */
export function MarketTable({
  rows,
  order,
  onSort,
  tab,
}: {
  rows: readonly MarketRow[]
  order: SortOrder | null
  onSort: (key: SortKey) => void
  tab?: PlayingKey
}) {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const { price, compact } = useFormatters()
  const { stale, mark } = useStaleMark()
  if (rows.length === 0) return <NoData />
  return (
    <table className="market-table pairs-table" data-testid="market-table" {...mark}>
      {stale && <caption className="visually-hidden">{t('desk.staleHint')}</caption>}
      <thead>
        <tr>
          <th>
            {t('market.pair')} /{' '}
            <SortButton column="volume" label={t('market.vol')} order={order} onSort={onSort} />
          </th>
          <th>
            <SortButton column="price" label={t('market.lastPrice')} order={order} onSort={onSort} />
          </th>
          <th>
            <SortButton column="change" label={t('market.change')} order={order} onSort={onSort} />
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const direction = directionOf(row.change)
          const href = tradeHref(row.symbol, tab)
          return (
            <tr key={row.symbol} data-symbol={row.symbol} onClick={() => navigate(href)}>
              <td>
                <Link href={href} className="pair-cell" onClick={(event) => event.stopPropagation()}>
                  <span>
                    <strong>{row.name}</strong>
                    <span className="muted"> /{row.quote}</span>
                  </span>
                  <span className="pair-volume muted num">
                    {t('market.vol')} {compact(row.volume)}
                  </span>
                </Link>
              </td>
              <td className={`num price-cell ${direction}`} data-testid="row-price">
                {price(row.price)}
              </td>
              <td>
                <span className={`change-pill num ${direction}`}>
                  {direction === 'up' ? '+' : ''}
                  {row.change}%
                </span>
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
