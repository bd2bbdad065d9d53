import type {
  StreamRate,
  DetailData,
  KlineData,
  KlineInterval,
  ServerFrame,
  TradeData,
  UserType,
} from '@tradegate/shared'
import { isUserType } from './socket-client'
import { useLiveStream } from './use-live-stream'

// The streams screens read: tickers, the candle being built, recent trades and per-user events, each a
// reducer folded over its frames by useLiveStream.

export type Ticker = DetailData & { symbol: string; ts: number }

function latestDetail(_previous: Ticker | undefined, frame: ServerFrame): Ticker | undefined {
  return frame.type === 'DETAIL' ? { ...frame.data, symbol: frame.symbol, ts: frame.ts } : _previous
}

function allDetails(
  previous: Readonly<Record<string, Ticker>> | undefined,
  frame: ServerFrame,
): Readonly<Record<string, Ticker>> {
  if (frame.type !== 'DETAIL') return previous ?? {}
  return { ...previous, [frame.symbol]: { ...frame.data, symbol: frame.symbol, ts: frame.ts } }
}

function latestKline(previous: KlineData | undefined, frame: ServerFrame): KlineData | undefined {
  return frame.type === 'KLINE' ? frame.data : previous
}

/** How many recent trades useTrades keeps, newest first. */
const RECENT_TRADES = 50

function recentTrades(previous: readonly TradeData[] | undefined, frame: ServerFrame): readonly TradeData[] {
  if (frame.type !== 'TRADE') return previous ?? []
  return [frame.data, ...(previous ?? [])].slice(0, RECENT_TRADES)
}

export interface UserEvent {
  type: UserType
  data: Record<string, unknown>
  ts: number
}

function latestUserEvent(previous: UserEvent | undefined, frame: ServerFrame): UserEvent | undefined {
  if (!isUserType(frame.type) || !('userId' in frame)) return previous
  return { type: frame.type, data: frame.data, ts: frame.ts }
}

/**
 * Latest 24 h ticker of one symbol (lowercase, e.g. btcusdt); undefined until the first frame. A row
 * of a list passes LIST_RATE: where the same pair is shown live elsewhere, that faster rate serves both.
 */
export function useTicker(symbol: string | null | undefined, rate: StreamRate = 0): Ticker | undefined {
  return useLiveStream(
    symbol ? { operation: 'subscribe', type: 'DETAIL', symbol, ...(rate ? { rate } : {}) } : null,
    'ticker',
    latestDetail,
  )
}

/**
 * How often a list is sent its prices: the gateway conflates each pair to its latest once a period.
 * Every tick of every pair was about 225 frames a second on the sandbox's 35 pairs; a list read by a
 * person needs one price a pair a second, which is 35.
 */
export const LIST_RATE = 1000

/** Latest ticker of every symbol, keyed by symbol, each at most once a second. */
export function useAllTickers(): Readonly<Record<string, Ticker>> {
  return (
    useLiveStream({ operation: 'subscribe', type: 'DETAIL', rate: LIST_RATE }, 'allTickers', allDetails) ??
    EMPTY_TICKERS
  )
}
const EMPTY_TICKERS: Readonly<Record<string, Ticker>> = Object.freeze({})

/** The candle being built for one symbol and interval; history comes from the kline call. */
export function useKline(symbol: string | null | undefined, interval: KlineInterval): KlineData | undefined {
  return useLiveStream(
    symbol ? { operation: 'subscribe', type: 'KLINE', symbol, interval } : null,
    'kline',
    latestKline,
  )
}

/** The most recent trades of one symbol, newest first. */
export function useTrades(symbol: string | null | undefined): readonly TradeData[] {
  return (
    useLiveStream(
      symbol ? { operation: 'subscribe', type: 'TRADE', symbol } : null,
      'trades',
      recentTrades,
    ) ?? NO_TRADES
  )
}
const NO_TRADES: readonly TradeData[] = Object.freeze([])

/** The latest per-user event of one type (none for null); the client authenticates the socket with the session token. */
export function useUserEvents(type: UserType | null): UserEvent | undefined {
  return useLiveStream(type ? { operation: 'subscribe', type } : null, 'user', latestUserEvent)
}
