import { callApi } from '../http'

export function removeFromWatchlist(id: number) {
  return callApi('watchlistRemove', { params: { id: String(id) } })
}
