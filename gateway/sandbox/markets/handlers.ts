import type { WatchCoin } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import { idSequence } from '../state'
import { coinEntries, contractPairs, optionCoins, secondPeriods, spotPairs, watchCoin } from './listings'

const DEFAULT_KLINE_LIMIT = 300
const SORTABLE_COLUMNS = ['id', 'coin', 'symbol', 'showSymbol', 'type', 'status', 'showFlag', 'sort'] as const

type MarketCalls = 'getCoinList' | 'getMt5Amount' | 'symbolList' | 'kline' | 'periodList'
type WatchlistCalls = 'watchlistAdd' | 'watchlist' | 'watchlistRemove'

export function marketHandlers(
  state: SandboxState,
  periodSeconds: readonly number[] | undefined,
): Pick<Handlers, MarketCalls | WatchlistCalls> {
  const { market } = state
  const periods = secondPeriods(periodSeconds)
  const watchlists = new Map<string, WatchCoin[]>()
  const nextWatchId = idSequence()

  return {
    getCoinList: () => ({
      coinList: coinEntries(market),
      currencyList: spotPairs(),
      contractList: contractPairs(market, state.settings.current.CONTRACT_FEES),
      optionList: optionCoins(),
    }),

    getMt5Amount: ({ query }) => {
      const instrument = market.instrumentOfCoin(query.coin.toLowerCase())
      if (!instrument || instrument.coinType !== 3) return refuse('notAnMt5Coin')
      return market.detail(instrument.symbol).amount
    },

    symbolList: ({ query }) => {
      const column = query.orderByColumn ?? 'sort'
      if (!(SORTABLE_COLUMNS as readonly string[]).includes(column)) return refuse('unknownColumn')
      const key = column as (typeof SORTABLE_COLUMNS)[number]
      const direction = query.isAsc === 'desc' ? -1 : 1
      return market.instruments
        .map((instrument) => watchCoin(instrument))
        .sort((a, b) => direction * String(a[key]).localeCompare(String(b[key]), 'en', { numeric: true }))
    },

    kline: ({ query }) => {
      if (!market.has(query.symbol)) return refuse('unknownSymbol')
      return market.candles(query.symbol, query.interval, Number(query.limit ?? DEFAULT_KLINE_LIMIT))
    },

    periodList: ({ body }) => {
      if (body?.symbol !== undefined && !market.has(body.symbol)) return refuse('unknownSymbol')
      return body?.symbol ? periods.filter((period) => period.symbol === body.symbol) : periods
    },

    watchlistAdd: ({ user, body }) => {
      if (!market.has(body.symbol)) return refuse('unknownSymbol')
      const list = watchlists.get(user.id) ?? []
      if (list.some((entry) => entry.symbol === body.symbol)) return refuse('alreadyInWatchlist')
      const entry = watchCoin(market.instrument(body.symbol), nextWatchId())
      watchlists.set(user.id, [...list, entry])
      return entry
    },

    watchlist: ({ user }) => watchlists.get(user.id) ?? [],

    watchlistRemove: ({ user, params }) => {
      const list = watchlists.get(user.id) ?? []
      if (!list.some((entry) => String(entry.id) === params.id)) return refuse('notInWatchlist')
      watchlists.set(
        user.id,
        list.filter((entry) => String(entry.id) !== params.id),
      )
      return null
    },
  }
}
