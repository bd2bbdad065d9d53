import { useEffect, useRef } from 'react'
import { useSocketState, useUserEvents } from '../live'
import { useCall } from '../swr'

/**
 * The user's balances, kept current: fetched again whenever the feed says one changed (a deposit, a
 * fill, a settlement) and after a gap in the live data (the socket back from a drop, a resync frame),
 * when events may have been missed.
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
  const gapsSeen = useRef(socket.gaps)
  useEffect(() => {
    if (socket.gaps > gapsSeen.current) void mutate()
    gapsSeen.current = socket.gaps
  }, [socket.gaps, mutate])
  const socketDown = !socket.open && socket.opened
  const stale = balances.data !== undefined && (socketDown || balances.error !== undefined)
  return Object.assign(balances, { stale })
}
