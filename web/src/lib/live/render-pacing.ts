import { startTransition } from 'react'

// Render pacing for live values: each stream's value lives in a channel, and the channels that changed
// re-render together, at most once per LIVE_RENDER_MS, on an animation frame, however fast the feed ticks.
// A render of live values is a transition: React renders it in slices of a few milliseconds and lets
// a tap or a keystroke in between, where a synchronous render of the book, the ticker and the form
// held the main thread for one long task every flush (a phone's CPU made each 50-100 ms).

/**
 * The shortest gap between two renders of live values. A feed of a few dozen frames a second would
 * otherwise redraw the screen on nearly every animation frame (style, layout, paint and commit each
 * time), which a phone pays in battery and in slower taps; four redraws a second still read as live.
 */
export const LIVE_RENDER_MS = 250

export interface Channel<T> {
  value: T | undefined
  renders: Set<() => void>
  release: (() => void) | null
  dirty: boolean
}

const channels = new Map<string, Channel<unknown>>()
const dirtyChannels = new Set<Channel<unknown>>()
let flushScheduled = false
let lastFlushAt = -Infinity

function scheduleFrame(callback: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(callback)
  else setTimeout(callback, 16)
}

/** The next animation frame once LIVE_RENDER_MS have passed since the last render; a timer waits out the rest. */
function scheduleFlush(): void {
  const wait = lastFlushAt + LIVE_RENDER_MS - performance.now()
  if (wait <= 0) scheduleFrame(flushChannels)
  else setTimeout(() => scheduleFrame(flushChannels), wait)
}

function flushChannels(): void {
  flushScheduled = false
  lastFlushAt = performance.now()
  const channelsToRender = [...dirtyChannels]
  dirtyChannels.clear()
  startTransition(() => {
    for (const channel of channelsToRender) {
      channel.dirty = false
      for (const render of [...channel.renders]) render()
    }
  })
}

export function markDirty(channel: Channel<unknown>): void {
  if (channel.dirty) return
  channel.dirty = true
  dirtyChannels.add(channel)
  if (!flushScheduled) {
    flushScheduled = true
    scheduleFlush()
  }
}

export function channelOf<T>(id: string): Channel<T> {
  let channel = channels.get(id) as Channel<T> | undefined
  if (!channel) {
    channel = { value: undefined, renders: new Set(), release: null, dirty: false }
    channels.set(id, channel as Channel<unknown>)
  }
  return channel
}

/** The channel of `id` if one is open, without opening one. */
export function openChannel<T>(id: string): Channel<T> | undefined {
  return channels.get(id) as Channel<T> | undefined
}

/** Forgets a channel whose last reader left: nothing renders it any more. */
export function dropChannel(id: string, channel: Channel<unknown>): void {
  channels.delete(id)
  dirtyChannels.delete(channel)
}
