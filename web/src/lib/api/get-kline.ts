import type { KlineInterval } from '@tradegate/shared'
import { useCall } from '../swr'

const HISTORY_CANDLES = '300'

/** Candle history; live candles then come from useKline. */
export function useKlineHistory(symbol: string, interval: KlineInterval) {
  return useCall(
    'kline',
    { query: { symbol, interval, limit: HISTORY_CANDLES } },
    { swr: { revalidateIfStale: true, dedupingInterval: 0 } },
  )
}
