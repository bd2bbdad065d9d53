import { useEffect } from 'react'
import { useUserEvents } from '../../../lib/live'
import { useCall } from '../../../lib/swr'

/** Balances, fetched again whenever the live feed says one changed (a limit fill, a settlement). */
export function useBalances() {
  const balances = useCall('assetBalance')
  const change = useUserEvents('OWNCOIN')
  const { mutate } = balances
  useEffect(() => {
    if (change) void mutate()
  }, [change, mutate])
  return balances
}
