import { changePercent, coinMatches, toDecimal, type CoinEntry, type CoinList } from '@tradegate/shared'
import { toDisplayCoin } from './coins'
import type { Ticker } from './live/stream-hooks'

// Market list rows: what each tab lists, with the live ticker folded in, sorted and filtered.

export interface ListedPair {
  symbol: string
  coin: string
}

export interface MarketRow {
  symbol: string
  /** e.g. BTC */
  name: string
  /** e.g. USDT */
  quote: string
  price: string
  /** percent, two decimals, signed when negative */
  change: string
  /** 24 h volume in the quote coin (usdt), so pairs of cheap and dear coins compare */
  volume: string
}

export type SortKey = 'price' | 'change' | 'volume'
export type SortDirection = 'asc' | 'desc'
export interface SortOrder {
  key: SortKey
  direction: SortDirection
}

/** Each pair once, in its first position; a pair listed twice (two periods, two entries) shows once. */
export function uniquePairs(pairs: readonly ListedPair[]): ListedPair[] {
  const seen = new Set<string>()
  return pairs.filter((pair) => (seen.has(pair.symbol) ? false : (seen.add(pair.symbol), true)))
}

/** A row per pair: the live ticker when one arrived, else the coin list's last and opening price. */
export function buildRows(
  pairs: readonly ListedPair[],
  coinEntries: readonly CoinEntry[],
  tickers: Readonly<Record<string, Ticker>>,
): MarketRow[] {
  const entries = new Map(coinEntries.map((entry) => [entry.symbol, entry]))
  return uniquePairs(pairs).map((pair) => {
    const entry = entries.get(pair.symbol)
    const display = entry ? toDisplayCoin(entry) : null
    const ticker = tickers[pair.symbol]
    const price = ticker?.close ?? entry?.amount ?? '0'
    const open = ticker?.open ?? entry?.open ?? '0'
    return {
      symbol: pair.symbol,
      name: display?.coinUpperCase ?? pair.coin.toUpperCase(),
      quote: display?.baseCoinUpperCase ?? quoteOf(pair),
      price,
      change: changePercent(price, open),
      volume: ticker?.amount ?? '0',
    }
  })
}

/** The coin a pair is priced in, from its symbol and base coin: btcusdt and btc -> USDT. */
export function quoteOf(pair: Pick<ListedPair, 'symbol' | 'coin'>): string {
  const coin = pair.coin.toLowerCase()
  return pair.symbol.startsWith(coin) ? pair.symbol.slice(coin.length).toUpperCase() : ''
}

/** The coin a pair trades, from its coin-list entry, else its symbol less the quote: btcusdt -> btc. */
export function coinOf(symbol: string, coinList: CoinList | null): string {
  return coinList?.coinList.find((entry) => entry.symbol === symbol)?.coin ?? symbol.replace(/usdt$/, '')
}

/** Rows whose symbol or coin name contains the text, ignoring case, spaces and a slash between coins. */
export function filterRows(rows: readonly MarketRow[], text: string): MarketRow[] {
  return rows.filter((row) => coinMatches(text, row.name, row.symbol))
}

/** Sorted by decimal value (never as floats), ties kept in their listed order. */
export function sortRows(rows: readonly MarketRow[], order: SortOrder | null): MarketRow[] {
  if (!order) return [...rows]
  const sign = order.direction === 'asc' ? 1 : -1
  return rows
    .map((row, index) => ({ row, index, value: toDecimal(row[order.key]) }))
    .sort((left, right) => sign * left.value.comparedTo(right.value) || left.index - right.index)
    .map(({ row }) => row)
}

/** Clicking a column sorts it descending, then ascending, then back to the listed order. */
export function nextSortOrder(current: SortOrder | null, key: SortKey): SortOrder | null {
  if (current?.key !== key) return { key, direction: 'desc' }
  return current.direction === 'desc' ? { key, direction: 'asc' } : null
}

export function directionOf(change: string): 'up' | 'down' {
  return change.startsWith('-') ? 'down' : 'up'
}
