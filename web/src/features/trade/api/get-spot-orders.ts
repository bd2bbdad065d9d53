import { useCall } from '../../../lib/swr'

const POLL_MS = 3000

/** The user's spot orders on one pair, newest first; polled so a limit fill shows without a reload. */
export function useSpotOrders(symbol: string) {
  return useCall(
    'spotOrderList',
    { query: { symbol, pageNum: '1', pageSize: '20' } },
    { swr: { refreshInterval: POLL_MS } },
  )
}
