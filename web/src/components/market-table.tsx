import { memo } from 'react'
import { useTranslation } from '../lib/i18n'
import { Link, useLocation } from 'wouter'
import type { PlayingKey } from '@tradegate/shared'
import { NoData } from './no-data'
import { useFormatters } from '../lib/use-formatters'
import { directionOf, type MarketRow, type SortKey, type SortOrder } from '../lib/market-rows'
import { tradeHref } from '../lib/trade-link'
import { useStaleMark } from './feed-status'
import { ChangePercent } from './change-percent'

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

/**
 * One pair's row. Its props are the row's own strings, so a tick re-renders only the rows whose
 * figures changed, not every row of the list.
 */
const PairRow = memo(function PairRow({
  symbol,
  name,
  quote,
  price: last,
  change,
  volume,
  tab,
}: MarketRow & { tab: PlayingKey | undefined }) {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const { price, compact } = useFormatters()
  const direction = directionOf(change)
  const href = tradeHref(symbol, tab)
  return (
    <tr data-symbol={symbol} onClick={() => navigate(href)}>
      <td>
        <Link href={href} className="pair-cell" onClick={(event) => event.stopPropagation()}>
          <span>
            <strong>{name}</strong>
            <span className="muted"> /{quote}</span>
          </span>
          <span className="pair-volume muted phrase">
            {t('market.vol')} {compact(volume)} {quote}
          </span>
        </Link>
      </td>
      <td className={`num price-cell ${direction}`} data-testid="row-price">
        {price(last)}
      </td>
      <td>
        <ChangePercent change={change} pill />
      </td>
    </tr>
  )
})

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
  const { stale, mark } = useStaleMark()
  if (rows.length === 0) return <NoData />
  return (
    <table className="market-table pairs-table" data-testid="market-table" {...mark}>
      {stale && <caption className="visually-hidden">{t('desk.staleHint')}</caption>}
      <thead>
        <tr>
          <th>
            {t('market.pair')} /{' '}
            {/* the volume is the quote coin's turnover, so pairs of cheap and dear coins compare */}
            <SortButton
              column="volume"
              label={t('market.volIn', { coin: 'USDT' })}
              order={order}
              onSort={onSort}
            />
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
        {rows.map((row) => (
          <PairRow key={row.symbol} {...row} tab={tab} />
        ))}
      </tbody>
    </table>
  )
}
