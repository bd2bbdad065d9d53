import { useTranslation } from 'react-i18next'
import type { ContractOrder } from '@tradegate/shared'
import { ContractOrderRow } from './contract-order-row'

/** Contract orders as a table: open ones with a cancel button, past ones with their total, fee and status. */
export function ContractOrderTable({
  orders,
  history,
  shareNumberOf,
  onChanged,
}: {
  orders: readonly ContractOrder[]
  history: boolean
  /** usdt of position value per share of a pair */
  shareNumberOf: (symbol: string) => string
  onChanged: () => void
}) {
  const { t } = useTranslation()
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid={history ? 'contract-history' : 'contract-orders'}>
        <thead>
          <tr>
            <th className="desktop-only">{t('trade.time')}</th>
            <th>{t('trade.pair')}</th>
            <th>{t('trade.direction')}</th>
            <th>{t('desk.placedPrice')}</th>
            <th>{t('desk.averagePrice')}</th>
            <th>{t('desk.filled')}</th>
            {history && <th className="desktop-only">{t('desk.total')}</th>}
            {history && <th className="desktop-only">{t('trade.fee')}</th>}
            <th>{history ? t('trade.status') : ''}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <ContractOrderRow
              key={order.id}
              order={order}
              history={history}
              shareNumber={shareNumberOf(order.symbol)}
              onChanged={onChanged}
            />
          ))}
        </tbody>
      </table>
      {orders.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
    </div>
  )
}
