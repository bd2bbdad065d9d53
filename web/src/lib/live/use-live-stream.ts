import { useCallback, useRef, useSyncExternalStore } from 'react'
import type { ServerFrame, SubscriptionFrame } from '@tradegate/shared'
import { channelOf, dropChannel, markDirty, type Channel } from './render-pacing'
import { liveClient, subscriptionKey } from './socket-client'

// One live stream as React state: one channel per stream and reducer, shared by every component that
// reads it, re-rendered at the pace of render-pacing.ts.

/**
 * Folds each frame of a stream into the value shown; `resync` asks the server for the stream afresh
 * (a book that missed an update needs a new snapshot).
 */
export type LiveReducer<T> = (
  previous: T | undefined,
  frame: ServerFrame,
  resync: () => void,
) => T | undefined

/**
 * Reads one live stream as React state. `reducerName` names `reduce` in the channel id: callers pass
 * module-level reducers, so the id (and not the function's identity) decides the channel.
 */
export function useLiveStream<T>(
  frame: SubscriptionFrame | null,
  reducerName: string,
  reduce: LiveReducer<T>,
): T | undefined {
  const id = frame ? `${reducerName}|${subscriptionKey(frame)}` : ''
  const frameText = frame ? JSON.stringify(frame) : ''
  // the first reducer seen for a channel id is the one it keeps; a ref keeps it out of the deps
  const reducer = useRef(reduce)
  const subscribe = useCallback(
    (render: () => void) => {
      if (!id) return () => undefined
      const channel = channelOf<T>(id)
      channel.renders.add(render)
      if (!channel.release) {
        const subscription = JSON.parse(frameText) as SubscriptionFrame
        const client = liveClient()
        const resync = () => {
          client.resubscribe(subscription)
          client.reportGap()
        }
        const fold = reducer.current
        channel.release = client.subscribe(subscription, (incoming) => {
          channel.value = fold(channel.value, incoming, resync)
          markDirty(channel as Channel<unknown>)
        })
      }
      return () => {
        channel.renders.delete(render)
        if (channel.renders.size > 0) return
        channel.release?.()
        dropChannel(id, channel as Channel<unknown>)
      }
    },
    [id, frameText],
  )
  const snapshot = useCallback(() => (id ? channelOf<T>(id).value : undefined), [id])
  return useSyncExternalStore(subscribe, snapshot, snapshot)
}
