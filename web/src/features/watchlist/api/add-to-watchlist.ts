import { callApi } from '../../../lib/http'

export function addToWatchlist(symbol: string) {
  return callApi('watchlistAdd', { body: { symbol } })
}
