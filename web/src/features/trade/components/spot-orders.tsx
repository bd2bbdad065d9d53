import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SpotOrder } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { cancelSpotOrder } from '../api/cancel-spot-order'
import { CancelAllButton, CancelOrderButton } from './cancel-buttons'
import { ListTabs } from './list-tabs'

type Tab = 'open' | 'history'

/** The user's orders on one spot pair: open ones (each cancellable, or all at once) and the history. */
export function SpotOrders({
  open,
  all,
  onChanged,
}: {
  open: readonly SpotOrder[]
  all: readonly SpotOrder[]
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const [tab, setTab] = useState<Tab>('open')
  const openRows = open
  const historyRows = all.filter((order) => order.status !== 'open')
  const refresh = onChanged
  const rows = tab === 'open' ? openRows : historyRows
  return (
    <section className="panel trade-orders-area" aria-label={t('trade.myOrders')}>
      <ListTabs
        tabs={[
          { value: 'open', label: `${t('trade.openOrders')} (${openRows.length})`, testId: 'spot-open-tab' },
          { value: 'history', label: t('desk.orderHistory'), testId: 'spot-history-tab' },
        ]}
        value={tab}
        onChange={setTab}
        end={
          tab === 'open' && (
            <CancelAllButton
              count={openRows.length}
              ids={openRows.map((order) => order.id)}
              cancelOne={cancelSpotOrder}
              onDone={refresh}
            />
          )
        }
      />
      <div className="table-scroll">
        <table className="data-table" data-testid={tab === 'open' ? 'spot-orders' : 'spot-history'}>
          <thead>
            <tr>
              <th className="desktop-only">{t('trade.time')}</th>
              <th>{t('trade.side')}</th>
              <th>{t('desk.placedPrice')}</th>
              <th>{t('desk.averagePrice')}</th>
              <th>{t('desk.filled')}</th>
              <th>{tab === 'open' ? '' : t('trade.status')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((order) => (
              <SpotOrderRow key={order.id} order={order} onChanged={refresh} />
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
    </section>
  )
}

function SpotOrderRow({ order, onChanged }: { order: SpotOrder; onChanged: () => void }) {
  const { t } = useTranslation()
  const { price, dateTime } = useFormatters()
  const traded = order.filledAmount !== '' && order.filledAmount !== '0'
  return (
    <tr data-order-status={order.status} data-order-id={order.id}>
      <td className="num muted desktop-only">{dateTime(order.createdAt)}</td>
      <td className={order.side === 'buy' ? 'up' : 'down'}>
        {t(`trade.${order.side}`)} · {t(`trade.${order.type}`)}
      </td>
      <td className="num" data-testid="order-price">
        {order.type === 'limit' && order.price ? price(order.price) : t('trade.market')}
      </td>
      <td className="num">{traded && order.filledPrice ? price(order.filledPrice) : '--'}</td>
      <td className="num" data-testid="order-filled">
        {order.filledAmount || '0'} / {order.amount}
      </td>
      <td>
        {order.status === 'open' ? (
          <CancelOrderButton cancel={() => cancelSpotOrder(order.id)} onDone={onChanged} />
        ) : (
          <span className={`tag status-${order.status}`}>{t(`trade.status_${order.status}`)}</span>
        )}
      </td>
    </tr>
  )
}
