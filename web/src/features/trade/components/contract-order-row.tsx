import { useTranslation } from 'react-i18next'
import { mul, type ContractOrder } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { cancelContractOrder } from '../api/cancel-contract-order'
import { CancelOrderButton } from './cancel-buttons'
import { OrderDetailRow, PastOrderCells } from './order-detail-row'

/**
 * One contract order. A past order also shows the position value it filled (shares times the pair's
 * usdt per share) and the fee it paid: as columns on a desktop and, with its time, in a line under
 * the row on a phone, where the columns would not fit.
 */
export function ContractOrderRow({
  order,
  history,
  shareNumber,
  amending,
  onAmend,
  onChanged,
}: {
  order: ContractOrder
  history: boolean
  shareNumber: string
  /** the amend form below the table is open for this order */
  amending: boolean
  onAmend: () => void
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { price, amount, dateTime } = useFormatters()
  const filledShares = order.filledShares ?? (order.status === 'filled' ? order.shares : '0')
  const total = filledShares === '0' ? '--' : `${amount(mul(filledShares, shareNumber), 2)} USDT`
  const fee = order.fee === undefined ? '--' : `${amount(order.fee, 4)} USDT`
  return (
    <>
      <tr data-order-status={order.status} data-symbol={order.symbol}>
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
          {order.type === 'limit' || order.type === 'stopLimit' ? price(order.price) : t('trade.market')}
          {order.triggerPrice !== undefined && (
            <small className="muted nowrap" data-testid="order-trigger">
              {' '}
              {t('trade.futures.triggerAt', { price: price(order.triggerPrice) })}
            </small>
          )}
        </td>
        <td className="num" data-testid="order-average">
          {order.filledPrice ? price(order.filledPrice) : '--'}
        </td>
        <td className="num" data-testid="order-filled">
          {filledShares} / {order.shares}
        </td>
        {history && <PastOrderCells total={total} fee={fee} />}
        <td>
          {history ? (
            <span className={`tag status-${order.status}`}>{t(`trade.status_${order.status}`)}</span>
          ) : (
            <span className="order-actions">
              <button
                type="button"
                className="button button-small"
                aria-expanded={amending}
                onClick={onAmend}
                data-testid="amend-order"
              >
                {t('trade.futures.amend')}
              </button>
              <CancelOrderButton cancel={() => cancelContractOrder(order.id)} onDone={onChanged} />
            </span>
          )}
        </td>
      </tr>
      <OrderDetailRow
        colSpan={history ? 9 : 7}
        createdAt={order.createdAt}
        past={history ? { total, fee } : undefined}
      />
    </>
  )
}
