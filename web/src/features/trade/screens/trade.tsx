import { Suspense, lazy } from 'react'
import type { KlineInterval } from '@tradegate/shared'
import { useTranslation } from '../../../lib/i18n'
import { Link, useSearchParams } from 'wouter'
import { LoadingBlock } from '../../../components/loading-block'
import type { CoinList, Period, PlayingKey, WatchCoin } from '@tradegate/shared'
import { useCoinList, useSettings, tradeHeaderTabs } from '../../../lib/settings'
import { usePeriods } from '../../../lib/api/get-periods'
import { IntervalBar, intervalOf } from '../../../components/interval-bar'
import { PairPicker } from '../../../components/pair-picker'
import { TickerHeader } from '../../../components/ticker-header'
import { FuturesStats } from '../components/futures-stats'
import { uniquePairs, type ListedPair } from '../../../lib/market-rows'
import { COMPONENT_NAMES, tabOfComponentName } from '../../../lib/trade-link'
import type { ReactNode } from 'react'
import { useWatchlist } from '../../../lib/api/get-watchlist'
import { WatchButton } from '../../../components/watch-button'
import { ContractPanel } from '../components/contract-panel'
import { BookPanel } from '../components/book-panel'
import { SecondPanel } from '../components/second-panel'
import { SpotPanel } from '../components/spot-panel'
import { useDesktop } from '../components/use-desktop'
import { WatchlistPanel } from '../components/watchlist-panel'
import '../../../components/trading.css'
import { TabList } from '../../../components/tab-list'

// the chart is drawn beside the form on desktops only; phones open /tradeChart, so they never load it
const CandleChart = lazy(() => import('../../../components/candle-chart'))

const DEFAULT_SYMBOL = 'btcusdt'
const NO_COINS: readonly WatchCoin[] = Object.freeze([])

function pairsOf(
  tab: PlayingKey,
  coinList: CoinList | null,
  periods?: readonly Period[],
  watchlist?: readonly WatchCoin[],
): ListedPair[] {
  switch (tab) {
    case 'BBTrading':
      return coinList?.currencyList.filter((pair) => pair.enable) ?? []
    case 'Ustandard':
      return coinList?.contractList.filter((pair) => pair.enable) ?? []
    case 'SecondContract':
      return uniquePairs((periods ?? []).map(({ symbol }) => ({ symbol, coin: symbol.replace(/usdt$/, '') })))
    case 'Option':
      return coinList?.optionList ?? []
    case 'Optional':
      return [...(watchlist ?? [])]
  }
}

function pairName(symbol: string): string {
  return symbol.toUpperCase().replace(/USDT$/, '/USDT')
}

/**
 * Trading: header tabs from PLAYING_SETTING (componentName picks one, 2 being contracts), a pair
 * picker, the live ticker, the tab's order form and lists, and the pair's recent trades.
 */
export interface TradeScreenProps {
  /** the options desk for a coin; the app passes it in, so this feature needs no other */
  optionPanel?: (coin: string) => ReactNode
}

export default function TradeScreen({ optionPanel }: TradeScreenProps) {
  const { t } = useTranslation()
  const settings = useSettings()
  const coinList = useCoinList()
  const periods = usePeriods()
  const watchlist = useWatchlist()
  const desktop = useDesktop()
  const [search, setSearch] = useSearchParams()
  const tabs = tradeHeaderTabs(settings)
  const requestedTab = tabOfComponentName(search.get('componentName'))
  const firstTradingTab = tabs.find((tab) => !tab.isOption)?.key
  const tab =
    requestedTab && tabs.some((entry) => entry.key === requestedTab)
      ? requestedTab
      : (firstTradingTab ?? tabs[0]?.key ?? 'BBTrading')

  const pairs = pairsOf(tab, coinList, periods.data, watchlist.data)
  const requestedSymbol = search.get('symbol') ?? DEFAULT_SYMBOL
  // the watchlist tab shows its own first coin unless the link names one of its coins
  const symbol = pairs.some((pair) => pair.symbol === requestedSymbol)
    ? requestedSymbol
    : (pairs[0]?.symbol ?? requestedSymbol)
  const interval = intervalOf(search.get('interval'))
  const coin = symbol.replace(/usdt$/, '')

  const setParams = (changes: Record<string, string>) =>
    setSearch(
      (current) => {
        for (const [key, value] of Object.entries(changes)) current.set(key, value)
        current.set('id', current.get('id') ?? '1')
        return current
      },
      { replace: true },
    )

  const spotPair = coinList?.currencyList.find((pair) => pair.symbol === symbol)
  const contractPair = coinList?.contractList.find((pair) => pair.symbol === symbol)

  // The panels, the book and the ticker are memoised and given props that keep their identity: this
  // screen renders again whenever the settings, the coin list, the periods or the watchlist arrive,
  // and each such render, synchronous as every store or SWR update is, used to render the whole page.
  let panel = null
  if (tab === 'Optional') {
    panel = <WatchlistPanel coins={watchlist.data ?? NO_COINS} openTab={firstTradingTab} />
  } else if (tab === 'BBTrading' && spotPair) {
    panel = <SpotPanel key={symbol} pair={spotPair} />
  } else if (tab === 'Ustandard' && contractPair && coinList) {
    panel = <ContractPanel key={symbol} pair={contractPair} pairs={coinList.contractList} />
  } else if (tab === 'SecondContract' && periods.data?.some((period) => period.symbol === symbol)) {
    panel = <SecondPanel key={symbol} symbol={symbol} allPeriods={periods.data} />
  } else if (tab === 'Option') {
    panel = optionPanel?.(coin) ?? null
  }

  return (
    <div className="screen trade-screen" data-tab={tab}>
      <h1 className="visually-hidden">{t('trade.title')}</h1>
      <header className="trade-top">
        <TabList
          className="tab-strip trade-tabs"
          itemClassName="tab-strip-item"
          label={t('trade.title')}
          items={tabs.map((entry) => ({
            value: entry.key,
            label: t(`trade.tabs.${entry.key}`),
            data: { 'data-trade-tab': entry.key },
          }))}
          value={tab}
          onChange={(key) => setParams({ componentName: COMPONENT_NAMES[key] })}
        />
      </header>
      {tab !== 'Optional' && (
        <div className="pair-bar">
          <PairPicker
            pairs={pairs}
            symbol={symbol}
            name={pairName(symbol)}
            onPick={(picked) => setParams({ symbol: picked })}
          />
          <WatchButton symbol={symbol} label={pairName(symbol)} />
          <Link
            href={`/tradeChart?symbol=${symbol}`}
            className="button button-small"
            data-testid="open-chart"
          >
            {t('trade.chart')}
          </Link>
        </div>
      )}
      <div className="trade-grid">
        <div className="trade-ticker-area">
          <TickerHeader symbol={symbol} name={pairName(symbol)} />
          {tab === 'Ustandard' && <FuturesStats symbol={symbol} />}
        </div>
        {desktop && tab !== 'Optional' && tab !== 'Option' && (
          <div className="panel trade-chart-area">
            <IntervalBar value={interval} onChange={(next: KlineInterval) => setParams({ interval: next })} />
            <Suspense fallback={<LoadingBlock />}>
              <CandleChart key={`${symbol}-${interval}`} symbol={symbol} interval={interval} />
            </Suspense>
          </div>
        )}
        {panel ?? (
          <div className="panel trade-form-area">
            <LoadingBlock />
          </div>
        )}
        <div className="trade-book-area">
          <BookPanel symbol={symbol} coin={coin} rows={desktop ? 12 : 7} spot={tab === 'BBTrading'} />
        </div>
      </div>
    </div>
  )
}
