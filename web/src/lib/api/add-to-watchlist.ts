import { callApi } from '../http'

export function addToWatchlist(symbol: string) {
  return callApi('watchlistAdd', { body: { symbol } })
}
