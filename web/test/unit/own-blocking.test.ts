import { describe, expect, it } from 'vitest'
import { ownBlockingMs, type TraceEvent } from '../lighthouse/own-blocking'

// A renderer (pid 2) whose main thread is tid 20, beside another thread and another process.
const threads: TraceEvent[] = [
  { name: 'thread_name', ph: 'M', pid: 2, tid: 20, ts: 0, args: { name: 'CrRendererMain' } },
  { name: 'thread_name', ph: 'M', pid: 2, tid: 21, ts: 0, args: { name: 'Compositor' } },
  { name: 'thread_name', ph: 'M', pid: 3, tid: 30, ts: 0, args: { name: 'CrRendererMain' } },
]
const paint: TraceEvent = { name: 'firstContentfulPaint', ph: 'I', pid: 2, tid: 20, ts: 1_000_000 }
/** A top-level task at `atMs` lasting `wallMs`, of which it held a core `cpuMs`. */
const task = (atMs: number, wallMs: number, cpuMs: number, pid = 2, tid = 20): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  pid,
  tid,
  ts: atMs * 1000,
  dur: wallMs * 1000,
  tdur: cpuMs * 1000,
})

describe('ownBlockingMs', () => {
  it('counts the CPU time of the main thread after the first paint, slowed down as Lighthouse simulates', () => {
    const events = [...threads, paint, task(1100, 30, 20), task(1200, 10, 10)]
    // 20 ms × 4 = 80 ms, 30 over the 50 ms bound; 10 ms × 4 = 40 ms is no long task
    expect(ownBlockingMs(events, 4)).toBe(30)
    // at the desktop preset's slowdown of 1 neither is long
    expect(ownBlockingMs(events, 1)).toBe(0)
  })

  it('leaves out the time a task waited for a core', () => {
    // 104 ms of wall time, 8 ms on a core: 32 ms simulated, not a long task of the page's
    expect(ownBlockingMs([...threads, paint, task(1100, 104, 8)], 4)).toBe(0)
  })

  it('leaves out tasks before the paint, on other threads and in other processes, and nested tasks', () => {
    const events = [
      ...threads,
      paint,
      task(900, 60, 60),
      task(1100, 60, 60, 2, 21),
      task(1100, 60, 60, 3, 30),
      task(1300, 60, 40),
      task(1310, 20, 20),
    ]
    // only the task at 1300: 40 × 4 − 50 = 110; the one at 1310 ran inside it
    expect(ownBlockingMs(events, 4)).toBe(110)
  })

  it('says nothing for a trace without a first paint', () => {
    expect(ownBlockingMs([...threads, task(1100, 60, 60)], 4)).toBeUndefined()
  })
})
