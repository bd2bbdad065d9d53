import type { CoinList, Period, PlayingKey, Settings, WatchCoin } from '@tradegate/shared'
import { coinOf, type ListedPair } from '../../../lib/market-rows'

// The market list's tabs: the open PLAYING_SETTING entries in the order a trader scans them.

const MARKET_TAB_ORDER: readonly PlayingKey[] = [
  'Optional',
  'BBTrading',
  'Ustandard',
  'SecondContract',
  'Option',
]

export function marketTabs(settings: Settings): PlayingKey[] {
  const open = new Set(settings.PLAYING_SETTING.filter((tab) => tab.isOpen).map((tab) => tab.key))
  return MARKET_TAB_ORDER.filter((key) => open.has(key))
}

/** The pairs one tab lists; undefined while what it needs is still loading. */
export function pairsOfTab(
  tab: PlayingKey,
  sources: { coinList: CoinList | null; watchlist?: readonly WatchCoin[]; periods?: readonly Period[] },
): ListedPair[] | undefined {
  const { coinList } = sources
  switch (tab) {
    case 'Optional':
      return sources.watchlist?.map(({ symbol, coin }) => ({ symbol, coin }))
    case 'BBTrading':
      return coinList?.currencyList
        .filter((pair) => pair.isShow)
        .map(({ symbol, coin }) => ({ symbol, coin }))
    case 'Ustandard':
      return coinList?.contractList
        .filter((pair) => pair.visible)
        .map(({ symbol, coin }) => ({ symbol, coin }))
    case 'SecondContract':
      return sources.periods?.map(({ symbol }) => ({ symbol, coin: coinOf(symbol, coinList) }))
    case 'Option':
      return coinList?.optionList.map(({ symbol, coin }) => ({ symbol, coin }))
  }
}
