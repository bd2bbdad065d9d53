/**
 * The interleaved rounds: the systems that are compared with each other (the gateway on each bus,
 * its floors, its market lists at a rate) measured at the same rate scales, round after round, every
 * system in turn on a fresh server and fleet. A slow spell of a shared machine lands on one round of
 * every system alike, and ratios are taken only between windows of the same round.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { errorText } from './child-process'
import {
  BARE_WS_CORKED,
  BARE_WS_PREFRAMED,
  GATEWAY,
  GATEWAY_CLUSTER,
  GATEWAY_LISTS,
  GATEWAY_LISTS_100,
  GATEWAY_REDIS,
  variantScenario,
  type SocketSystem,
  type SocketSystemContext,
} from './socket-systems'
import { describe, idleRssBytes, measureWindow, onFreshSystem, windowGraceMs } from './windows'
import type { BenchOptions, CapacityReport, SocketRounds, SocketWindow } from './types'

/** In the order each round measures them. */
export const ROUND_SYSTEMS = [
  GATEWAY,
  BARE_WS_PREFRAMED,
  GATEWAY_REDIS,
  GATEWAY_CLUSTER,
  BARE_WS_CORKED,
  GATEWAY_LISTS_100,
  GATEWAY_LISTS,
] as const

/**
 * The rates of the rounds, from the reference's ramp: the highest step it held with the generator
 * under its bound (where a CPU ratio means the most), and half of it. Without such a step, the
 * lowest step tried.
 */
function roundRates(reference: CapacityReport | undefined, fallback: number): number[] {
  const usable = (reference?.steps ?? []).filter((step) => step.held && !step.generatorBound)
  const top = usable.reduce<SocketWindow | undefined>(
    (best, step) => (!best || step.offeredPerSecond > best.offeredPerSecond ? step : best),
    undefined,
  )
  if (!top) return [fallback]
  const half = Number((top.rateScale / 2).toPrecision(3))
  return [half, top.rateScale]
}

function measureRound(
  system: SocketSystem,
  ctx: SocketSystemContext,
  rates: number[],
  clients: number,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<{ idleBytes?: number; windows: SocketWindow[] }> {
  // rounds run only at rates the reference held, where frames arrive well within half a second
  const graceMs = windowGraceMs(options.quick, ctx.scenario.listRate, 500)
  return onFreshSystem(system, ctx, clients, graceMs, async (wc) => {
    // every round starts the system afresh: one more reading of its idle process
    const idleBytes = await idleRssBytes(wc.running)
    await wc.running.setRateScale(rates[0]!)
    await wc.running.startTicks()
    // resolves once every socket is open with its first frame in, or throws: a round never measures
    // part of its fleet (each window also waits until every socket is ready again)
    await wc.fleet.connect()
    const windows: SocketWindow[] = []
    for (const scale of rates) {
      await wc.running.setRateScale(scale)
      await sleep(options.rampSettleMs)
      const window = await measureWindow(wc, scale, options.roundMeasureMs)
      window.sockets = wc.fleet.openSockets
      log(`  ${system.name} ×${scale}: ${describe(window)}`)
      windows.push(window)
    }
    return { idleBytes, windows }
  })
}

/**
 * Every compared system in turn, round after round, at the rates of the reference's ramp (`reference`:
 * the gateway's capacity report, undefined where this run ramped no gateway).
 */
export async function runRounds(
  systems: SocketSystem[],
  baseCtx: Omit<SocketSystemContext, 'scenario'>,
  reference: CapacityReport | undefined,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<SocketRounds> {
  const clients = Math.max(...options.clientCounts)
  const rates = roundRates(reference, options.rampGrid[options.rampStart]!)
  const report: SocketRounds = {
    clients,
    rates,
    ratesFrom: reference
      ? `the highest step ${GATEWAY} held with the generator under its bound, and half of it`
      : `no ${GATEWAY} ramp in this run: its first step`,
    systems: systems.map((system) => ({
      system: system.name,
      windows: rates.map(() => []),
      idleRssMb: [],
      errors: [],
    })),
  }
  for (let round = 0; round < options.socketRounds; round++) {
    log(`rounds: round ${round + 1} of ${options.socketRounds} at ×${rates.join(', ×')}, ${clients} clients`)
    for (const [index, system] of systems.entries()) {
      const entry = report.systems[index]!
      const ctx = { ...baseCtx, scenario: variantScenario(options.scenario, system.variant) }
      try {
        const { idleBytes, windows } = await measureRound(system, ctx, rates, clients, options, log)
        windows.forEach((window, rate) => (entry.windows[rate]![round] = window))
        if (idleBytes !== undefined) entry.idleRssMb?.push(idleBytes / 2 ** 20)
      } catch (error) {
        entry.errors.push(`round ${round + 1}: ${errorText(error)}`)
        log(`  ${system.name}: ${entry.errors.at(-1)}`)
      }
    }
  }
  return report
}
