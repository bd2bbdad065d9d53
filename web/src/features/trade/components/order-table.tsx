import type { ReactNode } from 'react'
import { useTranslation } from '../../../lib/i18n'

/** What an order's figures are counted in: its prices in the quote coin, its amounts in the base coin or shares. */
export interface OrderUnits {
  price: string
  amount: string
}

/**
 * The units the table's head names: each one every row shares. Where the rows differ (open spot
 * orders on BTC and ETH) the head names none and each row's cell names its own.
 */
export function commonUnits(rows: readonly OrderUnits[]): OrderUnits {
  const shared = (key: keyof OrderUnits) =>
    rows.length > 0 && rows.every((row) => row[key] === rows[0]![key]) ? rows[0]![key] : ''
  return { price: shared('price'), amount: shared('amount') }
}

/**
 * The names of the price and amount columns, each with its unit when known: the head's for the
 * table's common units, a row's (on a phone, where each figure carries its name) for its own.
 */
export function useOrderColumnNames(units: OrderUnits): { placed: string; average: string; filled: string } {
  const { t } = useTranslation()
  const withUnit = (name: string, unit: string) => (unit ? t('common.withUnit', { name, unit }) : name)
  return {
    placed: withUnit(t('desk.placedPrice'), units.price),
    average: withUnit(t('desk.averagePrice'), units.price),
    filled: withUnit(t('desk.filled'), units.amount),
  }
}

/**
 * A row's unit after a figure, when the table's head does not name it (its rows differ). Hidden
 * where the table stacks into cards: each card's labels name the row's units there.
 */
export function CellUnit({ unit, named }: { unit: string; named: string }) {
  if (!unit || unit === named) return null
  return <span className="cell-unit"> {unit}</span>
}

/**
 * The table of the spot and the contract order lists: the time, the list's own columns (`leading`),
 * the placed and average price and what is filled, then for past orders their total, fee and the
 * list's own columns (`pastTrailing`), and the status (for open ones, the place of the cancel
 * button). The rows draw the same cells.
 */
export function OrderTable({
  testId,
  history,
  units,
  leading,
  pastTrailing,
  children,
}: {
  testId: string
  history: boolean
  /** the units the rows share (commonUnits), named in the head */
  units: OrderUnits
  leading: ReactNode
  /** the list's own columns of past orders, after the fee */
  pastTrailing?: ReactNode
  children: ReactNode
}) {
  const { t } = useTranslation()
  const names = useOrderColumnNames(units)
  return (
    <table className="data-table stacking-table" data-testid={testId}>
      <thead>
        <tr>
          <th className="desktop-only">{t('trade.time')}</th>
          {leading}
          <th data-testid="head-placed-price">{names.placed}</th>
          <th data-testid="head-average-price">{names.average}</th>
          <th data-testid="head-filled">{names.filled}</th>
          {history && <th className="desktop-only">{t('desk.total')}</th>}
          {history && <th className="desktop-only">{t('trade.fee')}</th>}
          {history && pastTrailing}
          {/* open orders: the column of Cancel buttons, named for a screen reader's table navigation */}
          <th>
            {history ? t('trade.status') : <span className="visually-hidden">{t('trade.cancel')}</span>}
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  )
}
