import { useTranslation } from '../../../lib/i18n'
import { mul, type SpotOrder } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { cancelSpotOrder } from '../api/cancel-spot-order'
import { CancelOrderButton } from './cancel-buttons'
import { OrderDetailRow, PastOrderCells } from './order-detail-row'
import { CellUnit, useOrderColumnNames, type OrderUnits } from './order-table'
import { OrderTimeCell } from '../../../components/order-time-cell'

/**
 * One spot order. A past order also shows what it traded for (average price times amount filled)
 * and its fee: as columns on a desktop, and on a phone, where the columns would not fit, as a line
 * under the row with its time.
 */
export function SpotOrderRow({
  order,
  units,
  headUnits,
  history,
  onChanged,
}: {
  order: SpotOrder
  /** this order's units: its pair's quote coin and the coin it trades */
  units: OrderUnits
  /** the units the table's head names */
  headUnits: OrderUnits
  history: boolean
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { price, value, fee: showFee, decimal } = useFormatters()
  const traded = order.filledAmount !== '' && order.filledAmount !== '0' && order.filledPrice !== ''
  const quote = units.price
  const names = useOrderColumnNames(units)
  const total = traded ? `${value(mul(order.filledAmount, order.filledPrice))} ${quote}` : '--'
  // the exchange takes the fee in the quote coin on both sides
  const fee = `${showFee(order.fee || '0')} ${quote}`
  const columns = history ? 8 : 6
  return (
    <>
      <tr data-order-status={order.status} data-order-id={order.id} data-symbol={order.symbol}>
        <OrderTimeCell ms={order.createdAt} />
        <td className={`cell-head ${order.side === 'buy' ? 'up' : 'down'}`}>
          <span className="nowrap" data-testid="order-pair">
            {order.symbol.toUpperCase().replace(/USDT$/, '')}
          </span>{' '}
          {t(`trade.${order.side}`)} · {t(`trade.${order.type}`)}
        </td>
        <td className="num" data-label={names.placed} data-testid="order-price">
          {order.type === 'limit' && order.price ? (
            <>
              {price(order.price)}
              <CellUnit unit={units.price} named={headUnits.price} />
            </>
          ) : (
            <span className="phrase">{t('trade.market')}</span>
          )}
        </td>
        <td className="num" data-label={names.average} data-testid="order-average">
          {traded ? (
            <>
              {price(order.filledPrice)}
              <CellUnit unit={units.price} named={headUnits.price} />
            </>
          ) : (
            '--'
          )}
        </td>
        <td className="num" data-label={names.filled} data-testid="order-filled">
          {decimal(order.filledAmount || '0')} / {decimal(order.amount)}
          <CellUnit unit={units.amount} named={headUnits.amount} />
        </td>
        {history && <PastOrderCells total={total} fee={fee} />}
        <td className="cell-end">
          {order.status === 'open' ? (
            <CancelOrderButton cancel={() => cancelSpotOrder(order.id)} onDone={onChanged} />
          ) : (
            <span className={`tag status-${order.status}`}>{t(`trade.status_${order.status}`)}</span>
          )}
        </td>
      </tr>
      <OrderDetailRow
        colSpan={columns}
        createdAt={order.createdAt}
        past={history ? { total, fee } : undefined}
      />
    </>
  )
}
