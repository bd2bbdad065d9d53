import { useMemo } from 'react'
import { coinPrecisions, precisionOf, type CoinEntry } from '@tradegate/shared'
import { useCoinList } from './settings'

// The display fields the client derives from a coin-list entry.

export interface DisplayCoin extends CoinEntry {
  baseCoinUpperCase: string
  coinUpperCase: string
  symbolUpperCase: string
}

/** Coins are lowercase except on the mt5 market; showSymbol replaces the symbol when customizeFlag is 2. */
export function toDisplayCoin(entry: CoinEntry): DisplayCoin {
  const coin =
    entry.market === 'mt5' && entry.coin.toLowerCase() !== 'xau' ? entry.coin : entry.coin.toLowerCase()
  return {
    ...entry,
    coin,
    baseCoinUpperCase: entry.baseCoin.toUpperCase(),
    coinUpperCase: entry.coin.toUpperCase(),
    symbolUpperCase: entry.customizeFlag === 2 ? entry.showSymbol : entry.symbol.toUpperCase(),
  }
}

/** The market symbol of a coin quoted in USDT, as the live feed names it (btc -> btcusdt). */
export function usdtSymbol(coin: string): string {
  return `${coin.toLowerCase()}usdt`
}

/** Each coin's places from the coin list, the one rule for showing, filling and checking its amounts. */
export function useCoinPrecision(): (coin: string) => number {
  const list = useCoinList()
  return useMemo(() => {
    const precisions = list ? coinPrecisions(list) : new Map<string, number>()
    return (coin: string) => precisionOf(precisions, coin)
  }, [list])
}
