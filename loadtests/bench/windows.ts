/**
 * One measurement window of a socket system, and the helpers around it: a fresh server and fleet to
 * measure on, a held window retried once, draining a backlog, a window in words.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { NativeClientFleet, type WindowExpectation } from './native-client'
import type { RunningSocketSystem, SocketSystem, SocketSystemContext } from './socket-systems'
import { cpuSince, readRssBytes } from './proc-stats'
import { judgeWindow } from './capacity'
import { generatorBound } from './generator-bound'
import type { SocketWindow } from './types'

/**
 * How long after a window frames published in it may still count: enough for a held system's
 * latency, and for a list at a rate, its period.
 */
export function windowGraceMs(quick: boolean, listRateMs: number, heldGraceMs = 1000): number {
  return Math.max(quick ? QUICK_GRACE_MS : heldGraceMs, listRateMs > 0 ? listRateMs + 250 : 0)
}

/**
 * The quick run's bound on a window's grace. The grace ends as soon as every frame published in the
 * window has arrived (at once on a quiet machine), so the bound only matters on a busy one, where a
 * short fixed grace let a window count nothing a server sent a little late.
 */
export const QUICK_GRACE_MS = 3000

/**
 * The frames a window's grace waits for: each topic's publishes times its subscribers. Lists at a
 * rate deliver fewer than published, so there the grace runs at least the rate plus 250 ms and
 * waits only for the raw frames.
 */
export function windowExpectation(
  published: Record<string, number>,
  subscribers: ReturnType<NativeClientFleet['subscribers']>,
  listRateMs: number,
): WindowExpectation {
  let raw = 0
  let rated = 0
  for (const [topic, count] of Object.entries(published)) {
    raw += count * (subscribers.raw.get(topic) ?? 0)
    rated += count * (subscribers.rated.get(topic) ?? 0)
  }
  return listRateMs > 0 ? { raw, rated: -1, minGraceMs: listRateMs + 250 } : { raw, rated, minGraceMs: 0 }
}

/** What one system's windows need besides the fleet and the running server. */
export interface WindowContext {
  fleet: NativeClientFleet
  running: RunningSocketSystem
  listRateMs: number
  /** How long after a window ends frames published in it may still arrive and count. */
  graceMs: number
}

/**
 * A fresh server of `system` and a fleet of `clients` for it (not yet connected), handed to `work`
 * as a window context; the fleet is closed and the server stopped however `work` ends.
 */
export async function onFreshSystem<T>(
  system: SocketSystem,
  ctx: SocketSystemContext,
  clients: number,
  graceMs: number,
  work: (wc: WindowContext) => Promise<T>,
): Promise<T> {
  let running: RunningSocketSystem | undefined
  let fleet: NativeClientFleet | undefined
  try {
    running = await system.start(ctx)
    const { scenario } = ctx
    fleet = new NativeClientFleet({ url: running.url, protocol: system.protocol, clients, scenario })
    return await work({ fleet, running, listRateMs: scenario.listRate, graceMs })
  } finally {
    fleet?.close()
    await running?.stop()
  }
}

/** How long a fresh server settles from its start before its idle memory is read. */
const IDLE_SETTLE_MS = 300

/** A fresh server's RSS before any socket and before the ticks start, in bytes: its idle process. */
export async function idleRssBytes(running: RunningSocketSystem): Promise<number | undefined> {
  await sleep(IDLE_SETTLE_MS)
  return readRssBytes(running.pid)
}

/**
 * One window: frames counted by publish time inside it (arriving up to `graceMs` later), the
 * offered rate from what the feed published in it, and the server's CPU over it.
 */
export async function measureWindow(wc: WindowContext, scale: number, ms: number): Promise<SocketWindow> {
  const subscribers = wc.fleet.subscribers()
  const serverCpu = cpuSince(wc.running.pid)
  const close = await wc.fleet.openWindow()
  await sleep(ms)
  const serverCpuMicros = serverCpu()
  let published: Record<string, number> = {}
  // the grace ends once every frame published in the window is in, at most graceMs after it
  const client = await close(wc.graceMs, async (from, to) => {
    published = await wc.running.countPublished(from, to)
    return windowExpectation(published, subscribers, wc.listRateMs)
  })
  const window = judgeWindow({
    rateScale: scale,
    client,
    published,
    subscribers,
    listRateMs: wc.listRateMs,
    serverCpuMicros,
  })
  if (client.stallMs) window.clientLoopDelayMs = client.stallMs
  const bound = generatorBound({
    generatorCpuPercent: window.clientCpuPercent,
    targetCpuPercent: window.serverCpuPercent,
    atCapacity: false,
  })
  if (bound) window.generatorBound = bound
  return window
}

/** A judged window, retried once if it did not hold: one descheduled moment on a shared machine must not decide it. */
export async function measureHeldWindow(wc: WindowContext, scale: number, ms: number): Promise<SocketWindow> {
  const window = await measureWindow(wc, scale, ms)
  return window.held ? window : measureWindow(wc, scale, ms)
}

/** Queues built past capacity must drain before a lower rate's window means anything. */
export async function drain(wc: WindowContext, scale: number, maxWindows: number): Promise<void> {
  // counted in windows, not milliseconds: a busy machine gets as many chances as a quiet one
  for (let tries = 0; tries < maxWindows; tries++) {
    const window = await measureWindow({ ...wc, graceMs: 100 }, scale, 500)
    if (window.held && window.backlogFrames === 0) return
  }
}

export function describe(window: SocketWindow): string {
  const rated = window.rated
    ? `; list ${Math.round(window.rated.deliveredPerSecond)}/s (${Math.round(window.rated.minPerSecond)}–${Math.round(window.rated.maxPerSecond)} allowed), p99 ${window.rated.latencyMs.p99} ms`
    : ''
  const bound = window.generatorBound ? ` [generator-bound: ${window.generatorBound}]` : ''
  return `${Math.round(window.deliveredPerSecond)}/s of ${Math.round(window.offeredPerSecond)} offered, p99 ${window.latencyMs.p99} ms, server ${Math.round(window.serverCpuPercent ?? Number.NaN)}%, client ${Math.round(window.clientCpuPercent)}%${rated}: ${window.held ? 'held' : `not held (${window.verdict})`}${bound}`
}
