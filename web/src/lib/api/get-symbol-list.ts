import { useCall } from '../swr'

/** Every listed coin: what search and the watchlist pick from. */
export function useSymbolList() {
  return useCall('symbolList', { query: { orderByColumn: 'sort', isAsc: 'asc' } })
}
