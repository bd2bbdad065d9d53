import { useTranslation } from 'react-i18next'
import type { ContractOrder } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { cancelContractOrder } from '../api/cancel-contract-order'
import { CancelOrderButton } from './cancel-buttons'

/** Contract orders as a table: open ones with a cancel button, past ones with their status. */
export function ContractOrderTable({
  orders,
  history,
  onChanged,
}: {
  orders: readonly ContractOrder[]
  history: boolean
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { price, dateTime } = useFormatters()
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
            <th>{history ? t('trade.status') : ''}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} data-order-status={order.status}>
              <td className="num muted desktop-only">{dateTime(order.createdAt)}</td>
              <td>{order.symbol.toUpperCase().replace(/USDT$/, '')}</td>
              <td className={order.direction === 'long' ? 'up' : 'down'}>
                <span className="nowrap" data-testid="order-direction">
                  {order.positionId === undefined
                    ? t(`trade.${order.direction}`)
                    : t(order.direction === 'long' ? 'positions.closeLong' : 'positions.closeShort')}{' '}
                  {order.leverage}×
                </span>
              </td>
              <td className="num" data-testid="order-price">
                {order.type === 'limit' ? price(order.price) : t('trade.market')}
              </td>
              <td className="num" data-testid="order-average">
                {order.filledPrice ? price(order.filledPrice) : '--'}
              </td>
              <td className="num" data-testid="order-filled">
                {order.filledShares ?? (order.status === 'filled' ? order.shares : '0')} / {order.shares}
              </td>
              <td>
                {history ? (
                  <span className={`tag status-${order.status}`}>{t(`trade.status_${order.status}`)}</span>
                ) : (
                  <CancelOrderButton cancel={() => cancelContractOrder(order.id)} onDone={onChanged} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {orders.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
    </div>
  )
}
