import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * The table of the spot and the contract order lists: the time, the list's own columns (`leading`),
 * the placed and average price and what is filled, then for past orders their total, fee and the
 * list's own columns (`pastTrailing`), and the status (for open ones, the place of the cancel
 * button). The rows draw the same cells.
 */
export function OrderTable({
  testId,
  history,
  leading,
  pastTrailing,
  children,
}: {
  testId: string
  history: boolean
  leading: ReactNode
  /** the list's own columns of past orders, after the fee */
  pastTrailing?: ReactNode
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <table className="data-table stacking-table" data-testid={testId}>
      <thead>
        <tr>
          <th className="desktop-only">{t('trade.time')}</th>
          {leading}
          <th>{t('desk.placedPrice')}</th>
          <th>{t('desk.averagePrice')}</th>
          <th>{t('desk.filled')}</th>
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
