/**
 * An idle server as operators run it: started afresh, no socket on it, its feed ticking at the
 * scenario's own rates (×1) for a while, then its RSS read, and the heap it keeps alive (after full
 * collections, through its inspector: the least of a few readings, each holding what is in flight).
 * An idle gateway still ingests the whole feed (it parses every frame, keeps the books and, on Redis,
 * publishes each frame), and the heap that work keeps in use is part of what an idle instance holds;
 * the reading at a fresh start, before the first tick, does not see it. The pre-framed bare ws server
 * is read the same way beside it, the systems interleaved start by start.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { errorText } from './child-process'
import { cpuSince, readRssBytes } from './proc-stats'
import {
  BARE_WS_PREFRAMED,
  GATEWAY,
  GATEWAY_REDIS,
  variantScenario,
  type SocketSystem,
  type SocketSystemContext,
} from './socket-systems'
import type { BenchOptions, FedIdleReading, FedIdleReport } from './types'

/** In the order each start measures them. */
export const FED_IDLE_SYSTEMS = [GATEWAY, BARE_WS_PREFRAMED, GATEWAY_REDIS] as const

/** The feed's rate while idle: the scenario's own (the rate scale of its full-rate rows). */
const FED_IDLE_RATE_SCALE = 1

async function readFedIdle(
  system: SocketSystem,
  ctx: SocketSystemContext,
  ms: number,
  heapReadings: number,
): Promise<FedIdleReading> {
  const running = await system.start(ctx)
  try {
    await running.setRateScale(FED_IDLE_RATE_SCALE)
    const from = Date.now()
    await running.startTicks()
    const cpu = cpuSince(running.pid)
    await sleep(ms)
    const cpuMicros = cpu()
    const rss = readRssBytes(running.pid)
    if (rss === undefined) throw new Error(`no RSS for pid ${running.pid}`)
    const published = await running.countPublished(from, Date.now())
    const frames = Object.values(published).reduce((sum, count) => sum + count, 0)
    return {
      rssMb: rss / 2 ** 20,
      // last: it opens the server's inspector
      liveHeapMb: await running.liveHeapMb(heapReadings),
      ...(cpuMicros === undefined ? {} : { cpuPercent: (cpuMicros / (ms * 1000)) * 100 }),
      framesPerSecond: frames / (ms / 1000),
    }
  } finally {
    await running.stop()
  }
}

/** Every system in turn, start after start, each fed for `options.fedIdle.seconds` with no socket. */
export async function runFedIdle(
  systems: SocketSystem[],
  baseCtx: Omit<SocketSystemContext, 'scenario'>,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<FedIdleReport> {
  const { starts, seconds, heapReadings } = options.fedIdle
  const report: FedIdleReport = {
    rateScale: FED_IDLE_RATE_SCALE,
    seconds,
    heapReadings,
    systems: systems.map((system) => ({ system: system.name, readings: [], errors: [] })),
  }
  for (let start = 0; start < starts; start++) {
    log(`idle with the feed: start ${start + 1} of ${starts}, ${seconds} s each at ×${FED_IDLE_RATE_SCALE}`)
    for (const [index, system] of systems.entries()) {
      const entry = report.systems[index]!
      const ctx = { ...baseCtx, scenario: variantScenario(options.scenario, system.variant) }
      try {
        const reading = await readFedIdle(system, ctx, seconds * 1000, heapReadings)
        entry.readings.push(reading)
        log(
          `  ${system.name}: RSS ${reading.rssMb.toFixed(1)} MiB, live heap ${reading.liveHeapMb.toFixed(2)} MiB, CPU ${reading.cpuPercent?.toFixed(1) ?? '-'}% at ${Math.round(reading.framesPerSecond)} frames/s`,
        )
      } catch (error) {
        entry.errors.push(`start ${start + 1}: ${errorText(error)}`)
        log(`  ${system.name}: ${entry.errors.at(-1)}`)
      }
    }
  }
  return report
}
