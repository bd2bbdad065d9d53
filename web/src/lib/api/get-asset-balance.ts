import { useEffect } from 'react'
import { useUserEvents } from '../live'
import { useCall } from '../swr'

/**
 * The user's balances. With `live`, fetched again whenever the feed says one changed (a limit
 * fill, a settlement); without it, no user subscription is opened.
 */
export function useBalances({ live = false }: { live?: boolean } = {}) {
  const balances = useCall('assetBalance')
  const change = useUserEvents(live ? 'OWNCOIN' : null)
  const { mutate } = balances
  useEffect(() => {
    if (change) void mutate()
  }, [change, mutate])
  return balances
}
