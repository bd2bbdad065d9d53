import type { CoinEntry } from '@tradegate/shared'

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

const STABLE_COINS: ReadonlySet<string> = new Set(['usdt', 'usdc'])

/** Places a balance of the coin is shown with: 8 for a crypto coin (one satoshi of BTC), 4 for a stable coin. */
export function coinPlaces(coin: string): number {
  return STABLE_COINS.has(coin.toLowerCase()) ? 4 : 8
}
