/**
 * One measurement window of a socket system, and the helpers around it: a held window retried once,
 * draining a backlog, a window in words.
 */
import type { NativeClientFleet } from './native-client'
import type { RunningSocketSystem } from './socket-systems'
import { readCpuMicros } from './proc-stats'
import { judgeWindow } from './capacity'
import { generatorBound } from './generator-bound'
import type { SocketWindow } from './types'

/**
 * How long after a window frames published in it may still count: enough for a held system's
 * latency, and for a list at a rate, its period.
 */
export function windowGraceMs(quick: boolean, listRateMs: number, heldGraceMs = 1000): number {
  return Math.max(quick ? 300 : heldGraceMs, listRateMs > 0 ? listRateMs + 250 : 0)
}

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))

/** What one system's windows need besides the fleet and the running server. */
export interface WindowContext {
  fleet: NativeClientFleet
  running: RunningSocketSystem
  listRateMs: number
  /** How long after a window ends frames published in it may still arrive and count. */
  graceMs: number
}

/**
 * One window: frames counted by publish time inside it (arriving up to `graceMs` later), the
 * offered rate from what the feed published in it, and the server's CPU over it.
 */
export async function measureWindow(wc: WindowContext, scale: number, ms: number): Promise<SocketWindow> {
  const subscribers = wc.fleet.subscribers()
  const cpuBefore = readCpuMicros(wc.running.pid)
  const close = await wc.fleet.openWindow()
  await sleep(ms)
  const cpuAfter = readCpuMicros(wc.running.pid)
  const client = await close(wc.graceMs)
  const published = await wc.running.countPublished(client.from, client.to)
  const window = judgeWindow({
    rateScale: scale,
    client,
    published,
    subscribers,
    listRateMs: wc.listRateMs,
    serverCpuMicros: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
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
export async function drain(wc: WindowContext, scale: number, maxMs: number): Promise<void> {
  const deadline = performance.now() + maxMs
  while (performance.now() < deadline) {
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
