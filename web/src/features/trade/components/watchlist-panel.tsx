import { memo, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import type { PlayingKey, WatchCoin } from '@tradegate/shared'
import { useAllTickers } from '../../../lib/live/stream-hooks'
import { useCoinList } from '../../../lib/settings'
import { MarketTable } from '../../../components/market-table'
import { buildRows, nextSortOrder, sortRows, type SortOrder } from '../../../lib/market-rows'

/** The trade header's watchlist tab: the user's coins, live, each opening the given trading tab. */
export const WatchlistPanel = memo(function WatchlistPanel({
  coins,
  openTab,
}: {
  coins: readonly WatchCoin[]
  openTab?: PlayingKey
}) {
  const { t } = useTranslation()
  const tickers = useAllTickers()
  const coinList = useCoinList()
  const [order, setOrder] = useState<SortOrder | null>(null)
  const rows = sortRows(buildRows(coins, coinList?.coinList ?? [], tickers), order)
  return (
    <section className="panel watchlist-panel" data-testid="trade-watchlist">
      <div className="panel-head">
        <h2 className="panel-title">{t('trade.tabs.Optional')}</h2>
        <Link href="/addOptional" className="button button-small" data-testid="trade-add-optional">
          {t('watchlist.manage')}
        </Link>
      </div>
      <MarketTable
        rows={rows}
        order={order}
        onSort={(key) => setOrder(nextSortOrder(order, key))}
        tab={openTab}
      />
    </section>
  )
})
