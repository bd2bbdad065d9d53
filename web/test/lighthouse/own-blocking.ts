// The page's own blocking time, read from the trace Lighthouse recorded.
//
// Lighthouse's total blocking time adds up, for each main-thread task after the first contentful
// paint, what its simulated length (the observed wall time times the run's CPU slowdown) runs over
// 50 ms. Wall time counts the time the thread waited for a core: on a two-core machine that runs
// Chromium's browser, GPU and renderer processes beside the gateway and Lighthouse itself, a layout
// of 51 objects took 104 ms of wall time and 8 ms on a core. The same sum over the time each task
// held a core (the trace's thread time) is the part the page's own work is to blame for.

/** What this reads of a Chrome trace event. */
export interface TraceEvent {
  name: string
  ph?: string
  pid: number
  tid: number
  /** start, µs */
  ts: number
  /** wall time, µs */
  dur?: number
  /** thread (CPU) time, µs */
  tdur?: number
  args?: { name?: string }
}

const LONG_TASK_MS = 50
const TOP_LEVEL_TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask'])

/**
 * Σ max(0, slowdown × CPU time − 50 ms) over the top-level tasks of the painting renderer's main
 * thread that start after its first contentful paint, to the end of the trace (Lighthouse's own sum
 * stops at the page's interactive time, so a task after it counts here only); undefined when the
 * trace has no such paint.
 */
export function ownBlockingMs(events: readonly TraceEvent[], cpuSlowdown: number): number | undefined {
  const paint = events.find((event) => event.name === 'firstContentfulPaint')
  if (!paint) return undefined
  const main = events.find(
    (event) =>
      event.name === 'thread_name' && event.pid === paint.pid && event.args?.name === 'CrRendererMain',
  )
  if (!main) return undefined
  const tasks = events
    .filter(
      (event) =>
        event.ph === 'X' &&
        event.pid === main.pid &&
        event.tid === main.tid &&
        TOP_LEVEL_TASKS.has(event.name) &&
        event.ts > paint.ts,
    )
    .sort((left, right) => left.ts - right.ts)
  let blocking = 0
  let end = 0
  for (const task of tasks) {
    // a task run inside another (a nested loop) is already part of the outer one's time
    if (task.ts < end) continue
    end = task.ts + (task.dur ?? 0)
    const cpuMs = ((task.tdur ?? task.dur ?? 0) / 1000) * cpuSlowdown
    blocking += Math.max(0, cpuMs - LONG_TASK_MS)
  }
  return Math.round(blocking)
}
