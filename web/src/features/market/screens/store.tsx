import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { FeedStatusBadge } from '../../../components/feed-status'
import { Link } from 'wouter'
import type { PlayingKey } from '@tradegate/shared'
import { SearchIcon } from '../../../components/icons'
import { LoadingBlock } from '../../../components/loading-block'
import { Screen } from '../../../components/screen'
import { useAllTickers } from '../../../lib/live/stream-hooks'
import { useCoinList, useSettings } from '../../../lib/settings'
import { useWatchlist } from '../../../lib/api/get-watchlist'
import { usePeriods } from '../../../lib/api/get-periods'
import { MarketTable } from '../../../components/market-table'
import { buildRows, filterRows, nextSortOrder, sortRows, type SortOrder } from '../../../lib/market-rows'
import { marketTabs, pairsOfTab } from '../lib/market-tabs'
import '../../../components/trading.css'
import { TabList } from '../../../components/tab-list'

/** The market list: a tab per open product, live prices, sorting and a filter. */
export default function StoreScreen() {
  const { t } = useTranslation()
  const settings = useSettings()
  const tabs = marketTabs(settings)
  const [chosen, setChosen] = useState<PlayingKey | null>(null)
  const tab = chosen && tabs.includes(chosen) ? chosen : (tabs[0] ?? 'BBTrading')
  const coinList = useCoinList()
  const watchlist = useWatchlist()
  const periods = usePeriods()
  const tickers = useAllTickers()
  const [filter, setFilter] = useState('')
  const [order, setOrder] = useState<SortOrder | null>(null)

  // a failed load lists nothing rather than spinning for ever
  const pairs = pairsOfTab(tab, {
    coinList,
    watchlist: watchlist.data ?? (watchlist.error ? [] : undefined),
    periods: periods.data ?? (periods.error ? [] : undefined),
  })
  const rows = sortRows(filterRows(buildRows(pairs ?? [], coinList?.coinList ?? [], tickers), filter), order)

  return (
    <Screen
      title={t('market.title')}
      back={false}
      className="market-screen"
      right={
        <Link
          href="/search"
          className="icon-button"
          aria-label={t('market.search')}
          data-testid="open-search"
        >
          <SearchIcon />
        </Link>
      }
    >
      <TabList
        className="tab-strip"
        itemClassName="tab-strip-item"
        label={t('market.title')}
        items={tabs.map((key) => ({
          value: key,
          label: t(`market.tabs.${key}`),
          data: { 'data-market-tab': key },
        }))}
        value={tab}
        onChange={setChosen}
      />
      <div className="market-tools">
        <input
          className="filter-input"
          type="search"
          placeholder={t('market.filter')}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          aria-label={t('market.filter')}
          data-testid="market-filter"
        />
        <FeedStatusBadge />
        {tab === 'Optional' && (
          <Link href="/addOptional" className="button button-small" data-testid="add-optional">
            {t('watchlist.manage')}
          </Link>
        )}
      </div>
      {pairs === undefined ? (
        <LoadingBlock />
      ) : (
        <MarketTable
          rows={rows}
          order={order}
          onSort={(key) => setOrder(nextSortOrder(order, key))}
          tab={tab === 'Optional' ? undefined : tab}
        />
      )}
    </Screen>
  )
}
