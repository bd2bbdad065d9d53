import { Fragment, useEffect, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { SecondOrder } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { formatCountdown, secondsLeft } from '../../../lib/order-math'
import { serverClock } from '../../../lib/server-clock'
import { OrderDetailRow } from './order-detail-row'
import { OrderTimeCell } from '../../../components/order-time-cell'

/** The user's second contracts, with the countdown of open ones and the last settlement's result. */
export function SecondOrders({
  rows,
  settled,
}: {
  rows: readonly SecondOrder[]
  settled: SecondOrder | undefined
}) {
  const { t } = useTranslation()
  const { price, cash, pnl } = useFormatters()
  return (
    <section className="panel trade-orders-area">
      {settled && <SettlementResult order={settled} />}
      <h2 className="panel-title">{t('trade.myOrders')}</h2>
      <div className="table-scroll">
        <table className="data-table" data-testid="second-orders">
          <thead>
            <tr>
              <th className="desktop-only">{t('trade.time')}</th>
              <th className="desktop-only">{t('trade.pair')}</th>
              <th>{t('trade.direction')}</th>
              <th>{t('trade.stake')}</th>
              <th className="desktop-only">{t('trade.openPrice')}</th>
              <th>{t('trade.result')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((order) => (
              <Fragment key={order.id}>
                <tr data-order-status={order.status}>
                  <OrderTimeCell ms={order.createdAt} />
                  <td className="desktop-only">{order.symbol.toUpperCase()}</td>
                  <td className={order.direction === 'up' ? 'up' : 'down'}>
                    {t(`trade.${order.direction}`)} · {order.seconds}s
                  </td>
                  <td className="num">{cash(order.amount)}</td>
                  <td className="num desktop-only">{price(order.openPrice)}</td>
                  <td>
                    {order.status === 'open' ? (
                      <Countdown settleAt={order.settleAt} />
                    ) : (
                      <span className={`num ${order.status === 'lose' ? 'down' : 'up'}`}>
                        {t(`trade.status_${order.status}`)} {pnl(order.profit)}
                      </span>
                    )}
                  </td>
                </tr>
                {/* a phone has no time column: the time goes on a line under the row */}
                <OrderDetailRow colSpan={6} createdAt={order.createdAt} />
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
    </section>
  )
}

/**
 * Seconds left until settlement on the exchange's clock (the device's may be off), ticking;
 * "settling" once the time is up and the result is awaited.
 */
function Countdown({ settleAt }: { settleAt: number }) {
  const { t } = useTranslation()
  const [now, setNow] = useState(() => serverClock.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(serverClock.now()), 250)
    return () => clearInterval(timer)
  }, [])
  const left = secondsLeft(settleAt, now)
  return (
    <span className="countdown num" data-testid="second-countdown" data-seconds={left}>
      {left > 0 ? formatCountdown(left) : t('trade.settling')}
    </span>
  )
}

function SettlementResult({ order }: { order: SecondOrder }) {
  const { t } = useTranslation()
  const { price, pnl } = useFormatters()
  const tone = order.status === 'lose' ? 'down' : 'up'
  return (
    <div
      className={`settlement ${tone}`}
      role="status"
      data-testid="second-result"
      data-status={order.status}
    >
      <strong>{t(`trade.status_${order.status}`)}</strong>
      <span className="num">
        {order.symbol.toUpperCase().replace(/USDT$/, '/USDT')} {t(`trade.${order.direction}`)} ·{' '}
        {price(order.openPrice)} → {price(order.closePrice)}
      </span>
      <span className="num settlement-profit">
        {order.status === 'win' ? '+' : ''}
        {pnl(order.profit)} USDT
      </span>
    </div>
  )
}
