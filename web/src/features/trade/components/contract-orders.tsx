import { useTranslation } from 'react-i18next'
import type { ContractOrder } from '@tradegate/shared'
import { ContractOrderRow } from './contract-order-row'
import { OrderTable } from './order-table'

/** Contract orders as a table: open ones with a cancel button, past ones with their total, fee and status. */
export function ContractOrderTable({
  orders,
  history,
  shareNumberOf,
  priceScaleOf,
  onChanged,
}: {
  orders: readonly ContractOrder[]
  history: boolean
  /** usdt of position value per share of a pair */
  shareNumberOf: (symbol: string) => string
  /** decimal places of a pair's prices */
  priceScaleOf: (symbol: string) => number
  onChanged: () => void
}) {
  const { t } = useTranslation()
  return (
    <div className="table-scroll">
      <OrderTable
        testId={history ? 'contract-history' : 'contract-orders'}
        history={history}
        leading={
          <>
            <th>{t('trade.pair')}</th>
            <th>{t('trade.direction')}</th>
          </>
        }
      >
        {orders.map((order) => (
          <ContractOrderRow
            key={order.id}
            order={order}
            history={history}
            shareNumber={shareNumberOf(order.symbol)}
            priceScale={priceScaleOf(order.symbol)}
            onChanged={onChanged}
          />
        ))}
      </OrderTable>
      {orders.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
    </div>
  )
}
