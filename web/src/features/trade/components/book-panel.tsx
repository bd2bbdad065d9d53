import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ListTabs } from './list-tabs'
import { OrderBook } from './order-book'
import { RecentTrades } from './recent-trades'

/** The pair's market beside the form: the order book with its depth, or the recent trades. */
export function BookPanel({ symbol, coin, rows }: { symbol: string; coin: string; rows: number }) {
  const { t } = useTranslation()
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
        <OrderBook symbol={symbol} coin={coin} rows={rows} />
      ) : (
        <RecentTrades symbol={symbol} coin={coin} />
      )}
    </section>
  )
}
