import { useEffect, useRef, useState } from 'react'
import type { ServerFrame, SubscriptionFrame } from '@tradegate/shared'
import { channelOf, dropChannel, markDirty, openChannel, type Channel } from './render-pacing'
import { liveClient, subscriptionKey } from './socket-client'

// One live stream as React state: one channel per stream and reducer, shared by every component that
// reads it, re-rendered at the pace of render-pacing.ts. The value is component state set inside the
// flush's transition (useSyncExternalStore would render every flush synchronously, as one long task).

/**
 * Folds each frame of a stream into the value shown; `resync` asks the server for the stream afresh
 * (a book that missed an update needs a new snapshot).
 */
export type LiveReducer<T> = (
  previous: T | undefined,
  frame: ServerFrame,
  resync: () => void,
) => T | undefined

/** A value as rendered, with the channel it came from. */
interface Shown<T> {
  id: string
  value: T | undefined
}

function currentValue<T>(id: string): T | undefined {
  return id ? openChannel<T>(id)?.value : undefined
}

/** Opens the channel's subscription on the live socket if no reader has yet. */
function openStream<T>(channel: Channel<T>, frameText: string, fold: LiveReducer<T>): void {
  if (channel.release) return
  const subscription = JSON.parse(frameText) as SubscriptionFrame
  const client = liveClient()
  const resync = () => {
    client.resubscribe(subscription)
    client.reportGap()
  }
  channel.release = client.subscribe(subscription, (incoming) => {
    channel.value = fold(channel.value, incoming, resync)
    markDirty(channel as Channel<unknown>)
  })
}

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
  const [shown, setShown] = useState<Shown<T>>(() => ({ id, value: currentValue<T>(id) }))
  useEffect(() => {
    if (!id) return undefined
    const channel = channelOf<T>(id)
    // an unchanged value keeps the same state, so React skips the component
    const render = () =>
      setShown((previous) =>
        previous.id === id && Object.is(previous.value, channel.value)
          ? previous
          : { id, value: channel.value },
      )
    channel.renders.add(render)
    openStream(channel, frameText, reducer.current)
    // a flush between this component's render and now found no reader to render
    render()
    return () => {
      channel.renders.delete(render)
      if (channel.renders.size > 0) return
      channel.release?.()
      dropChannel(id, channel as Channel<unknown>)
    }
  }, [id, frameText])
  // a stream just switched (another pair) shows the new stream's value, never the last one's
  return shown.id === id ? shown.value : currentValue<T>(id)
}
