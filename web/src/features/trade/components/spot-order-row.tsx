import { useTranslation } from 'react-i18next'
import { mul, type SpotOrder } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { cancelSpotOrder } from '../api/cancel-spot-order'
import { CancelOrderButton } from './cancel-buttons'
import { OrderDetailRow, PastOrderCells } from './order-detail-row'
import { OrderTimeCell } from '../../../components/order-time-cell'

/** The quote coin a spot pair is priced in: btcusdt -> USDT. */
function quoteOf(symbol: string): string {
  return symbol.endsWith('usdt') ? 'USDT' : ''
}

/**
 * One spot order. A past order also shows what it traded for (average price times amount filled)
 * and its fee: as columns on a desktop, and on a phone, where the columns would not fit, as a line
 * under the row with its time.
 */
export function SpotOrderRow({
  order,
  history,
  onChanged,
}: {
  order: SpotOrder
  history: boolean
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { price, value, fee: showFee } = useFormatters()
  const traded = order.filledAmount !== '' && order.filledAmount !== '0' && order.filledPrice !== ''
  const quote = quoteOf(order.symbol)
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
        <td className="num" data-label={t('desk.placedPrice')} data-testid="order-price">
          {order.type === 'limit' && order.price ? price(order.price) : t('trade.market')}
        </td>
        <td className="num" data-label={t('desk.averagePrice')}>
          {traded ? price(order.filledPrice) : '--'}
        </td>
        <td className="num" data-label={t('desk.filled')} data-testid="order-filled">
          {order.filledAmount || '0'} / {order.amount}
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
