import { useEffect } from 'react'
import { useSocketState } from '../live/socket-state'
import { useUserEvents } from '../live/stream-hooks'
import { useCall } from '../swr'

/**
 * The user's balances, kept current: fetched again whenever the feed says one changed (a deposit, a
 * fill, a settlement); after a gap in the live data (the socket back from a drop, a resync frame)
 * every user call on screen, this one included, is fetched again by lib/resync.ts.
 * `stale` is true while they cannot be trusted to be current: the socket is down after having been
 * open, or the last fetch failed and older figures are still shown.
 */
export function useBalances() {
  const balances = useCall('assetBalance')
  const change = useUserEvents('OWNCOIN')
  const socket = useSocketState()
  const { mutate } = balances
  useEffect(() => {
    if (change) void mutate()
  }, [change, mutate])
  const socketDown = !socket.open && socket.opened
  const stale = balances.data !== undefined && (socketDown || balances.error !== undefined)
  return Object.assign(balances, { stale })
}
