import { describe, expect, it } from 'vitest'
import type { CoinEntry } from '@tradegate/shared'
import type { Ticker } from './live/stream-hooks'
import { buildRows, filterRows, nextSortOrder, sortRows, uniquePairs, type MarketRow } from './market-rows'

const entry = (coin: string, amount: string, open: string): CoinEntry => ({
  baseCoin: 'usdt',
  coin,
  symbol: `${coin}usdt`,
  market: 'crypto',
  customizeFlag: 0,
  showSymbol: `${coin.toUpperCase()}/USDT`,
  coinType: 1,
  amount,
  open,
})

const ticker = (symbol: string, close: string, open: string, amount: string): Ticker => ({
  symbol,
  close,
  open,
  high: close,
  low: close,
  vol: '1',
  amount,
  change: '0',
  ts: 1,
})

const row = (symbol: string, price: string, change: string, volume: string): MarketRow => ({
  symbol,
  name: symbol.replace(/usdt$/, '').toUpperCase(),
  quote: 'USDT',
  price,
  change,
  volume,
})

describe('buildRows', () => {
  it('prefers the live ticker and falls back to the coin list prices; volume is the quote volume', () => {
    const rows = buildRows(
      [
        { symbol: 'btcusdt', coin: 'btc' },
        { symbol: 'ethusdt', coin: 'eth' },
      ],
      [entry('btc', '100', '80'), entry('eth', '10', '20')],
      { btcusdt: ticker('btcusdt', '110', '100', '605000.5') },
    )
    expect(rows).toEqual([
      { symbol: 'btcusdt', name: 'BTC', quote: 'USDT', price: '110', change: '10.00', volume: '605000.5' },
      { symbol: 'ethusdt', name: 'ETH', quote: 'USDT', price: '10', change: '-50.00', volume: '0' },
    ])
  })

  it('names a pair the coin list does not know from its symbol, and lists each pair once', () => {
    const pairs = [
      { symbol: 'xauusdt', coin: 'xau' },
      { symbol: 'xauusdt', coin: 'xau' },
    ]
    expect(uniquePairs(pairs)).toHaveLength(1)
    expect(buildRows(pairs, [], {})).toEqual([
      { symbol: 'xauusdt', name: 'XAU', quote: 'USDT', price: '0', change: '0.00', volume: '0' },
    ])
  })
})

describe('sortRows', () => {
  const rows = [
    row('a', '9.5', '1.00', '100'),
    row('b', '10', '-2.00', '7'),
    row('c', '0.00001', '3.50', '100'),
  ]

  it('sorts prices as decimals, not as text', () => {
    expect(sortRows(rows, { key: 'price', direction: 'desc' }).map((r) => r.symbol)).toEqual(['b', 'a', 'c'])
    expect(sortRows(rows, { key: 'price', direction: 'asc' }).map((r) => r.symbol)).toEqual(['c', 'a', 'b'])
  })

  it('sorts negative changes below positive ones and keeps ties in listed order', () => {
    expect(sortRows(rows, { key: 'change', direction: 'asc' }).map((r) => r.symbol)).toEqual(['b', 'a', 'c'])
    expect(sortRows(rows, { key: 'volume', direction: 'desc' }).map((r) => r.symbol)).toEqual(['a', 'c', 'b'])
  })

  it('cycles a column through descending, ascending and unsorted', () => {
    const first = nextSortOrder(null, 'price')
    expect(first).toEqual({ key: 'price', direction: 'desc' })
    const second = nextSortOrder(first, 'price')
    expect(second).toEqual({ key: 'price', direction: 'asc' })
    expect(nextSortOrder(second, 'price')).toBeNull()
    expect(nextSortOrder(second, 'volume')).toEqual({ key: 'volume', direction: 'desc' })
    expect(sortRows(rows, null).map((r) => r.symbol)).toEqual(['a', 'b', 'c'])
  })
})

describe('filterRows', () => {
  const rows = [row('btcusdt', '1', '0', '0'), row('ethusdt', '1', '0', '0'), row('bchusdt', '1', '0', '0')]
  it('matches coin or symbol, ignoring case, spaces and a slash', () => {
    expect(filterRows(rows, 'BTC').map((r) => r.symbol)).toEqual(['btcusdt'])
    expect(filterRows(rows, 'eth/usdt').map((r) => r.symbol)).toEqual(['ethusdt'])
    expect(filterRows(rows, '  ')).toHaveLength(3)
    expect(filterRows(rows, 'doge')).toEqual([])
  })

  it('matches the coin by its name', () => {
    expect(filterRows(rows, 'bitcoin').map((r) => r.symbol)).toEqual(['btcusdt', 'bchusdt'])
    expect(filterRows(rows, 'Bitcoin Cash').map((r) => r.symbol)).toEqual(['bchusdt'])
    expect(filterRows(rows, 'ether').map((r) => r.symbol)).toEqual(['ethusdt'])
  })
})
