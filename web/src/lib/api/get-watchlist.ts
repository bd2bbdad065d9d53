import { isCode200 } from '@tradegate/shared'
import { useCall } from '../swr'

/** The user's watchlist; every screen showing it reads this one key, so a mutate shows everywhere at once. */
export function useWatchlist() {
  return useCall('watchlist', {}, { accept: isCode200 })
}
