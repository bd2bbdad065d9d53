import { useCallback, useSyncExternalStore } from 'react'
import { liveClient, type FeedStatus, type LiveClient } from './socket-client'

// What the feed badge shows: the feed's status and, while the socket is away, what it is doing.

/**
 * What the feed badge says: the feed's status and, while it is not live because the socket is
 * away, what the socket is doing: trying now, waiting `seconds` for its next try (`busy` when the
 * gateway asked it to wait), or waiting for the browser to be back online.
 */
export interface FeedBadgeState {
  status: FeedStatus
  socket: 'open' | 'connecting' | 'waiting' | 'offline'
  /** whole seconds until the next try, while waiting */
  seconds: number
  /** the next try, epoch ms of this page's clock; 0 when none is pending */
  retryAt: number
  /** which retry since the socket was last open the wait is for; 0 when none is pending */
  retry: number
  busy: boolean
}

function feedBadgeState(client: LiveClient, now: number): FeedBadgeState {
  const status = client.feedStatus(now)
  const connection = client.connection()
  if (connection.state !== 'waiting') {
    return { status, socket: connection.state, seconds: 0, retryAt: 0, retry: 0, busy: false }
  }
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false
  return {
    status,
    socket: offline ? 'offline' : 'waiting',
    seconds: Math.max(1, Math.ceil((connection.retryAt - now) / 1000)),
    retryAt: connection.retryAt,
    retry: connection.retry,
    busy: connection.busy,
  }
}

let shownBadge: FeedBadgeState | null = null

/** The same object while nothing shown changed, as useSyncExternalStore needs. */
function feedBadgeSnapshot(): FeedBadgeState {
  const next = feedBadgeState(liveClient(), Date.now())
  const same =
    shownBadge !== null &&
    (Object.keys(next) as Array<keyof FeedBadgeState>).every((key) => next[key] === shownBadge?.[key])
  if (!same) shownBadge = next
  return shownBadge as FeedBadgeState
}

const LIVE_BADGE: FeedBadgeState = {
  status: 'live',
  socket: 'open',
  seconds: 0,
  retryAt: 0,
  retry: 0,
  busy: false,
}

/** The feed badge's state, checked every second and on every socket change. */
export function useFeedBadge(): FeedBadgeState {
  const subscribe = useCallback((render: () => void) => {
    const client = liveClient()
    const stop = client.onStatusChange(render)
    const timer = setInterval(render, 1000)
    window.addEventListener('online', render)
    window.addEventListener('offline', render)
    return () => {
      stop()
      clearInterval(timer)
      window.removeEventListener('online', render)
      window.removeEventListener('offline', render)
    }
  }, [])
  return useSyncExternalStore(subscribe, feedBadgeSnapshot, () => LIVE_BADGE)
}
