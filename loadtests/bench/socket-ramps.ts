/**
 * The socket ramps: every ramped system in turn, a fresh server and feed per client count, each with a
 * window at the scenario's full rate; at the largest count first the capacity ramp, a window at half
 * the capacity, windows at the rates the first system (the reference) held, and the reconnect storms.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { errorText } from './child-process'
import { capacityGeneratorBound, findCapacity } from './capacity'
import type { NativeClientFleet, StormReport } from './native-client'
import { readCpuMicros, readRssBytes } from './proc-stats'
import { fixedInterval, webClientBackoff, type StormPolicy } from './reconnect-policy'
import type { BusProbe, SocketSystem, SocketSystemContext } from './socket-systems'
import type { BenchOptions, CapacityReport, ReferenceRate, SocketRow, SocketWindow, StormRow } from './types'
import {
  describe,
  drain,
  idleRssBytes,
  measureHeldWindow,
  measureWindow,
  onFreshSystem,
  windowGraceMs,
  type WindowContext,
} from './windows'

/**
 * Each system in turn, in its own context (its scenario), on a fresh server and feed per client count.
 * The largest count also runs the capacity ramp (before its full-rate window, so the ramp starts from
 * a server that has no backlog); a scenario variant runs only at the largest count. The first system
 * is the reference: every later one is also measured at the rates it held.
 */
export async function runSocketRamps(
  systems: Array<{ system: SocketSystem; ctx: SocketSystemContext }>,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<{ socket: SocketRow[]; capacity: CapacityReport[] }> {
  const socket: SocketRow[] = []
  const capacity: CapacityReport[] = []
  const largest = Math.max(...options.clientCounts)
  let referenceRates: ReferenceRate[] = []
  for (const { system, ctx } of systems) {
    let report = noCapacity(system, largest)
    for (const clients of system.variant ? [largest] : options.clientCounts) {
      log(`socket: ${system.name}, ${clients} clients`)
      const row: SocketRow = { system: system.name, clients, ok: false }
      socket.push(row)
      const isLargest = clients === largest
      report = (await runAtClientCount(system, ctx, row, isLargest, referenceRates, options, log)) ?? report
    }
    capacity.push(report)
    // the first system is the reference: the rate scales it held, each with the length of its window there
    if (capacity.length > 1) continue
    referenceRates = report.steps
      .filter((step) => step.held)
      .map((step) => ({ scale: step.rateScale, ms: options.rampMeasureMs }))
    if (report.half?.held) referenceRates.push({ scale: report.half.rateScale, ms: options.measureMs })
  }
  return { socket, capacity }
}

/** Bytes grown over `base` per open socket, in KiB; undefined without both readings or a socket. */
function perSocketKb(fleet: NativeClientFleet, bytes: number | undefined, base: number | undefined) {
  if (bytes === undefined || base === undefined || fleet.openSockets === 0) return undefined
  return (bytes - base) / 1024 / fleet.openSockets
}

/**
 * On a connected, subscribed fleet: the capacity ramp, then a window at half the capacity (and at
 * half the reference system's), then the reconnect storm at half capacity.
 */
async function runCapacity(
  system: SocketSystem,
  wc: WindowContext,
  clients: number,
  baseline: { rss: number | undefined; heap: number | undefined },
  referenceRates: ReferenceRate[],
  options: BenchOptions,
  log: (line: string) => void,
): Promise<CapacityReport> {
  const { fleet, running } = wc
  const measureStep = async (scale: number): Promise<SocketWindow> => {
    await running.setRateScale(scale)
    await sleep(options.rampSettleMs)
    const window = await measureHeldWindow(wc, scale, options.rampMeasureMs)
    log(`  ramp ×${scale}: ${describe(window)}`)
    if (!window.held) {
      // the next step must not start with this one's backlog
      await running.setRateScale(scale / 2)
      await drain(wc, scale / 2, options.drainWindows)
    }
    return window
  }
  const search = await findCapacity(options.rampGrid, options.rampStart, options.rampRefinements, measureStep)
  const report: CapacityReport = {
    system: system.name,
    clients,
    steps: search.steps,
    capacity: search.capacity,
    atTopOfRamp: search.atTopOfRamp,
  }
  const bound = capacityGeneratorBound(search.steps, search.capacity)
  if (bound) {
    report.generatorBound = bound
    log(`  capacity generator-bound: ${bound}`)
  }
  // With no held step (an overloaded machine), the storm still runs, at half the lowest rate tried.
  const lowest = Math.min(...search.steps.map((step) => step.rateScale))
  const halfScale = (search.capacity?.rateScale ?? lowest) / 2
  await running.setRateScale(halfScale)
  await drain(wc, halfScale, options.drainWindows)
  const rssBefore = readRssBytes(running.pid)
  const heapBefore = await running.heapUsedBytes?.()
  report.half = await measureHeldWindow(wc, halfScale, options.measureMs)
  log(`  half capacity ×${halfScale}: ${describe(report.half)}`)
  report.half.rssPerConnectionKb = perSocketKb(fleet, rssBefore, baseline.rss)
  report.half.heapPerConnectionKb = perSocketKb(fleet, heapBefore, baseline.heap)
  const measured = new Set([...search.steps.map((step) => step.rateScale), halfScale])
  const missing = referenceRates.filter((rate) => !measured.has(rate.scale)).sort((a, b) => a.scale - b.scale)
  if (missing.length > 0) report.atReferenceRates = []
  for (const { scale, ms } of missing) {
    await running.setRateScale(scale)
    await sleep(options.rampSettleMs)
    const window = await measureHeldWindow(wc, scale, ms)
    report.atReferenceRates!.push(window)
    log(`  at the reference's rate ×${scale}: ${describe(window)}`)
    if (!window.held) break
  }
  if (missing.length > 0) {
    await running.setRateScale(halfScale)
    await drain(wc, halfScale, options.drainWindows)
  }

  // The web client's old fixed interval first (the gateways only), then its own back-off.
  if (system.name.startsWith('gateway')) report.stormFixed = await runStorm(wc, fixedInterval(), log)
  report.storm = await runStorm(wc, webClientBackoff(), log)
  return report
}

/**
 * Every socket dropped at once, each reconnecting and resubscribing by `policy`: the time until all
 * have a frame again, the server's peak CPU (100 ms samples), and the Redis SUBSCRIBEs it took.
 */
async function runStorm(
  wc: WindowContext,
  policy: StormPolicy,
  log: (line: string) => void,
): Promise<StormRow> {
  const { fleet, running } = wc
  const busBefore: BusProbe | undefined = await running.busProbe?.()
  let peak = 0
  let last = readCpuMicros(running.pid)
  let lastAt = performance.now()
  const sampler = setInterval(() => {
    const now = readCpuMicros(running.pid)
    const at = performance.now()
    if (now !== undefined && last !== undefined)
      peak = Math.max(peak, ((now - last) / 1000 / (at - lastAt)) * 100)
    last = now
    lastAt = at
  }, 100)
  let storm: StormReport
  try {
    storm = await fleet.reconnectStorm({ policy, timeoutMs: 45_000 })
  } finally {
    clearInterval(sampler)
  }
  const busAfter = await running.busProbe?.()
  const row: StormRow = { ...storm, peakServerCpuPercent: peak }
  if (busBefore && busAfter) {
    row.bus = {
      subscribeCommands: busAfter.subscribeCommands - busBefore.subscribeCommands,
      channels: busAfter.channels,
      topics: fleet.topicCount,
    }
  }
  log(
    `  storm (${policy.name}): ${storm.sockets} sockets, all with a frame after ${Math.round(storm.ms)} ms, ${storm.retries} retries, peak server CPU ${Math.round(peak)}%${row.bus ? `, ${row.bus.subscribeCommands} SUBSCRIBEs` : ''}`,
  )
  return row
}

/** The capacity report of a system whose ramp did not run (yet). */
function noCapacity(system: SocketSystem, clients: number): CapacityReport {
  return { system: system.name, clients, steps: [], capacity: null, atTopOfRamp: false }
}

/**
 * One client count on a fresh server and feed: the full-rate window, and for the largest count the
 * capacity ramp first, whose report it returns (with its error, if the ramp failed).
 */
async function runAtClientCount(
  system: SocketSystem,
  ctx: SocketSystemContext,
  row: SocketRow,
  isLargest: boolean,
  referenceRates: ReferenceRate[],
  options: BenchOptions,
  log: (line: string) => void,
): Promise<CapacityReport | undefined> {
  const clients = row.clients
  const graceMs = windowGraceMs(options.quick, ctx.scenario.listRate)
  let capacity: CapacityReport | undefined
  const begin = performance.now()
  try {
    await onFreshSystem(system, ctx, clients, graceMs, async (wc) => {
      const { fleet, running } = wc
      log(`  started in ${Math.round(performance.now() - begin)} ms`)
      row.pinned = running.pinned
      const rssBaseline = await idleRssBytes(running)
      const heapBaseline = await running.heapUsedBytes?.()
      row.rssBaselineMb = rssBaseline === undefined ? undefined : rssBaseline / 2 ** 20

      // Ticks at the ramp's first rate before clients connect, so topics have a snapshot to send.
      await running.setRateScale(options.rampGrid[options.rampStart]!)
      await running.startTicks()
      row.connect = await fleet.connect()
      row.firstFrame = await fleet.waitUntilAllReceived(15_000)
      if (isLargest) {
        try {
          const baseline = { rss: rssBaseline, heap: heapBaseline }
          capacity = await runCapacity(system, wc, clients, baseline, referenceRates, options, log)
        } catch (error) {
          capacity = { ...noCapacity(system, clients), error: errorText(error) }
        }
      }
      const fullRate = capacity?.steps.find((step) => step.rateScale === 1)
      const framesBefore = await fleet.frameCount()
      if (fullRate) {
        row.window = fullRate
      } else {
        await running.setRateScale(1)
        await sleep(options.warmupMs)
        row.window = await measureWindow(wc, 1, options.measureMs)
      }
      log(`  full rate: ${describe(row.window)}`)
      const rssLoaded = readRssBytes(running.pid)
      row.rssPerConnectionKb = perSocketKb(fleet, rssLoaded, rssBaseline)
      // growth alone hides the idle base a smaller count carries: the whole RSS per socket too
      row.rssTotalPerConnectionKb = perSocketKb(fleet, rssLoaded, 0)
      // An overloaded system may deliver nothing published in the window within the grace; it
      // still worked if frames kept arriving.
      row.ok =
        row.connect.opened > 0 &&
        (row.window.deliveredPerSecond > 0 || (await fleet.frameCount()) > framesBefore)
      if (!row.ok) {
        const said = (await running.diagnose?.().catch(errorText)) ?? ''
        row.error = `opened ${row.connect.opened} sockets, received no frames ${said}`.trim()
      }
    })
  } catch (error) {
    row.error = errorText(error)
  }
  return capacity
}
