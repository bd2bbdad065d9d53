import { useCall } from '../../../lib/swr'

const POLL_MS = 3000

/**
 * The user's spot orders on one pair, newest first: the open ones, or every one (history); polled so
 * a limit fill shows without a reload.
 */
export function useSpotOrders(symbol: string | null, which: 'open' | 'all') {
  return useCall(
    'spotOrderList',
    symbol === null
      ? null
      : {
          query: {
            symbol,
            pageNum: '1',
            pageSize: which === 'open' ? '100' : '30',
            ...(which === 'open' ? { status: 'open' } : {}),
          },
        },
    { swr: { refreshInterval: POLL_MS } },
  )
}
