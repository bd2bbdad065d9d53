import { useTranslation } from '../../../lib/i18n'
import { mul, showPnl, sub, type ContractOrder } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { cancelContractOrder } from '../api/cancel-contract-order'
import { CancelOrderButton } from './cancel-buttons'
import { OrderDetailRow, PastOrderCells } from './order-detail-row'
import { CellUnit, useOrderColumnNames, type OrderUnits } from './order-table'
import { OrderTimeCell } from '../../../components/order-time-cell'

/** Whether an order buys: an opening long does, and so does the close of a short; a close of a long sells. */
export function buys(order: Pick<ContractOrder, 'direction' | 'positionId'>): boolean {
  const closing = order.positionId !== undefined
  return closing ? order.direction === 'short' : order.direction === 'long'
}

/**
 * What a filled close made after its fee, at the display rule's places (its sign is the sign shown):
 * the PnL it booked less the close fee; none for an opening order.
 */
function closeRealized(order: Pick<ContractOrder, 'pnl' | 'fee'>): string | undefined {
  return order.pnl === undefined ? undefined : showPnl(sub(order.pnl, order.fee ?? '0'))
}

/**
 * One contract order. A past order also shows the position value it filled (shares times the pair's
 * usdt per share) and the fee it paid: as columns on a desktop and, with its time, in a line under
 * the row on a phone, where the columns would not fit. A filled close says what closed it when the
 * user's own order did not (a take-profit, a stop-loss, a liquidation), and the PnL it realized.
 */
export function ContractOrderRow({
  order,
  history,
  units,
  headUnits,
  shareNumber,
  tickPlaces,
  amending,
  onAmend,
  onChanged,
}: {
  order: ContractOrder
  history: boolean
  /** this order's units: its pair's quote coin, and shares */
  units: OrderUnits
  /** the units the table's head names */
  headUnits: OrderUnits
  shareNumber: string
  /** the pair's price places */
  tickPlaces: number
  /** the amend form below the table is open for this order */
  amending: boolean
  onAmend: () => void
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { price: anyPrice, value, fee: showFee, pnl, decimal } = useFormatters()
  const price = (figure: unknown) => anyPrice(figure, tickPlaces)
  const filledShares = order.filledShares ?? (order.status === 'filled' ? order.shares : '0')
  const total = filledShares === '0' ? '--' : `${value(mul(filledShares, shareNumber))} USDT`
  const fee = order.fee === undefined ? '--' : `${showFee(order.fee)} USDT`
  const realized = closeRealized(order)
  const side = buys(order) ? 'up' : 'down'
  const names = useOrderColumnNames(units)
  return (
    <>
      <tr
        data-order-status={order.status}
        data-order-id={order.id}
        data-symbol={order.symbol}
        data-close-reason={order.closeReason}
      >
        <OrderTimeCell ms={order.createdAt} />
        <td className="cell-head">{order.symbol.toUpperCase().replace(/USDT$/, '')}</td>
        <td className={`cell-head wraps ${side}`}>
          <span className="nowrap" data-testid="order-direction">
            {order.positionId === undefined
              ? t(`trade.${order.direction}`)
              : t(order.direction === 'long' ? 'positions.closeLong' : 'positions.closeShort')}{' '}
            <span className="num">{order.leverage}×</span>
          </span>
          {/* a close the user's own order made reads as it always has: Close long or Close short */}
          {order.closeReason && order.closeReason !== 'manual' && (
            <>
              {' '}
              <span className={`tag tag-${side} nowrap`} data-testid="close-reason">
                {t(`positions.closeReason.${order.closeReason}`)}
              </span>
            </>
          )}
        </td>
        <td className="num wraps" data-label={names.placed} data-testid="order-price">
          {order.type === 'limit' || order.type === 'stopLimit' ? (
            <>
              {price(order.price)}
              <CellUnit unit={units.price} named={headUnits.price} />
            </>
          ) : (
            <span className="phrase">{t('trade.market')}</span>
          )}
          {order.triggerPrice !== undefined && (
            <>
              {' '}
              <small className="phrase muted nowrap" data-testid="order-trigger">
                {t('trade.futures.triggerAt', { price: price(order.triggerPrice) })}
              </small>
            </>
          )}
        </td>
        <td className="num" data-label={names.average} data-testid="order-average">
          {order.filledPrice ? (
            <>
              {price(order.filledPrice)}
              <CellUnit unit={units.price} named={headUnits.price} />
            </>
          ) : (
            '--'
          )}
        </td>
        <td className="num" data-label={names.filled} data-testid="order-filled">
          {decimal(filledShares)} / {decimal(order.shares)}
          <CellUnit unit={units.amount} named={headUnits.amount} />
        </td>
        {history && <PastOrderCells total={total} fee={fee} />}
        {history && (
          <td
            className={`num ${realized === undefined ? '' : realized.startsWith('-') ? 'down' : 'up'}`}
            data-label={t('positions.realizedPnl')}
            data-testid="order-pnl"
          >
            {realized === undefined ? '--' : `${pnl(realized)} USDT`}
          </td>
        )}
        <td className="cell-end">
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
        colSpan={history ? 10 : 7}
        createdAt={order.createdAt}
        past={history ? { total, fee } : undefined}
      />
    </>
  )
}
