import { memo, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useSpotOrders } from '../api/get-spot-orders'
import { ListTabs } from './list-tabs'
import { OrderBook } from './order-book'
import { RecentTrades } from './recent-trades'

/** The pair's market beside the form: the order book with its depth, or the recent trades. */
export const BookPanel = memo(function BookPanel({
  symbol,
  coin,
  rows,
  spot,
}: {
  symbol: string
  coin: string
  rows: number
  /** on the spot tab the user's open orders rest in this book and are marked on it */
  spot: boolean
}) {
  const { t } = useTranslation()
  // the same request as the open orders list beside it (every pair), so one poll serves both
  const open = useSpotOrders(spot ? { open: true } : null)
  const own = (open.data?.rows ?? [])
    .filter((order) => order.symbol === symbol && order.type === 'limit')
    .map((order) => ({
      price: order.price,
      side: order.side === 'buy' ? ('bid' as const) : ('ask' as const),
    }))
  const [tab, setTab] = useState<'book' | 'trades'>('book')
  return (
    <section className="panel book-panel" aria-label={t('desk.orderBook')}>
      <ListTabs
        tabs={[
          { value: 'book', label: t('desk.orderBook'), testId: 'book-tab' },
          { value: 'trades', label: t('trade.recentTrades'), testId: 'trades-tab' },
        ]}
        value={tab}
        onChange={setTab}
      />
      {tab === 'book' ? (
        <OrderBook symbol={symbol} coin={coin} rows={rows} own={own} />
      ) : (
        <RecentTrades symbol={symbol} coin={coin} />
      )}
    </section>
  )
})
