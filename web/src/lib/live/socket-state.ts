import { useCallback, useSyncExternalStore } from 'react'
import { liveClient } from './socket-client'

export interface SocketState {
  /** the socket is open now */
  open: boolean
  /** a socket has opened at least once on this page */
  opened: boolean
}

let lastSocketState: SocketState = { open: false, opened: false }

/**
 * Whether the socket is open, and whether it ever was: data shown while it is down after having been
 * open may be behind (what is refetched after a gap is resync.ts's business).
 */
export function useSocketState(): SocketState {
  const subscribe = useCallback((render: () => void) => liveClient().onStatusChange(render), [])
  const read = () => {
    const client = liveClient()
    const next = { open: client.isOpen, opened: client.openCount > 0 }
    const last = lastSocketState
    if (next.open !== last.open || next.opened !== last.opened) lastSocketState = next
    return lastSocketState
  }
  return useSyncExternalStore(subscribe, read, read)
}
