import { useCall } from '../../../lib/swr'

const POLL_MS = 3000

/**
 * The user's spot orders, newest first, polled so a limit fill shows without a reload: the open ones
 * on every pair (the most the gateway serves in a page, 100), or one pair's every order (history).
 * Null asks for nothing.
 */
export function useSpotOrders(scope: { open: true } | { symbol: string } | null) {
  return useCall(
    'spotOrderList',
    scope === null
      ? null
      : {
          query:
            'open' in scope
              ? { pageNum: '1', pageSize: '100', status: 'open' }
              : { symbol: scope.symbol, pageNum: '1', pageSize: '30' },
        },
    { swr: { refreshInterval: POLL_MS } },
  )
}
