/**
 * `npm run bench [-- --quick] [-- --clients 1000,5000] [-- --systems "bare ws"] [-- --no-install]
 *  [-- --phases sockets,rounds,rest] [-- --no-pin]`
 *
 * Runs the same socket scenario against every registered socket system, then wrk against every
 * REST target, then the hostile-bodies row, in one run: this process (the load generator) and
 * the tick feed on core 0, servers on core 1. Prints the figures as RESULTS.md words them, writes
 * results/bench-<time>.json and (full runs, or --results-md) RESULTS.md.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import * as prettier from 'prettier'
import { buildNativeGenerator, NativeClientFleet, type StormReport } from './native-client'
import { fixedInterval, webClientBackoff, type StormPolicy } from './reconnect-policy'
import { defaultScenario, type Scenario } from './scenario'
import {
  GATEWAY,
  socketSystems,
  variantScenario,
  type BusProbe,
  type RunningSocketSystem,
  type SocketSystem,
  type SocketSystemContext,
} from './socket-systems'
import {
  restTargets,
  withSandbox,
  type Cores,
  startGatewayOverSandbox,
  uncachedRequest,
  type RestTarget,
  type RestTargetContext,
  type RunningRestTarget,
} from './rest-targets'
import { busyPercent, readCpuMicros, readMachineTicks, readRssBytes, stealPercent } from './proc-stats'
import { errorText, runRestRounds } from './rest-rounds'
import { isMainModule, loadtestsDir, pinSelf, pinnedUnder } from './child-process'
import { capacityGeneratorBound, findCapacity } from './capacity'
import {
  describe,
  drain,
  measureHeldWindow,
  measureWindow,
  windowGraceMs,
  type WindowContext,
} from './windows'
import { runHostileBodies } from './hostile-bodies'
import { SIGNED_IN_UPLOAD_ENV, runSignedInUploads } from './signed-in-uploads'
import { keepSeparateRuns, renderResultsMd } from './results-md'
import { PROXIED_FLOOR, PROXIED_GATEWAY, runProxiedContention } from './proxied-contention'
import {
  startRedisChild,
  startRedisCluster,
  type RedisClusterChild,
} from '../../gateway/test/support/redis-server'
import { ROUND_SYSTEMS, roundRates, runRounds } from './rounds'
import { ensureWrk } from './wrk'
import { BENCH_PHASES, type BenchPhase } from './types'
import type {
  BenchOptions,
  BenchResult,
  CapacityReport,
  HostileReport,
  SignedInUploadsReport,
  ReferenceRate,
  SocketRow,
  SocketWindow,
  StormRow,
} from './types'

function selected(name: string, only: string[] | undefined): boolean {
  return !only || only.some((part) => name.toLowerCase().includes(part.toLowerCase()))
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

/** The rate scales a system held, each with the length of its window there. */
function heldRates(report: CapacityReport, options: BenchOptions): ReferenceRate[] {
  const rates = report.steps
    .filter((step) => step.held)
    .map((step) => ({ scale: step.rateScale, ms: options.rampMeasureMs }))
  if (report.half?.held) rates.push({ scale: report.half.rateScale, ms: options.measureMs })
  return rates
}

/**
 * One system, a fresh server and feed per client count. The largest count also runs the capacity
 * ramp (before its full-rate window, so the ramp starts from a server that has no backlog); a
 * scenario variant runs only at the largest count.
 */
async function runSocketSystem(
  system: SocketSystem,
  ctx: SocketSystemContext,
  referenceRates: ReferenceRate[],
  options: BenchOptions,
  log: (line: string) => void,
): Promise<{ rows: SocketRow[]; capacity: CapacityReport }> {
  const rows: SocketRow[] = []
  const largest = Math.max(...options.clientCounts)
  const counts = system.variant ? [largest] : options.clientCounts
  let capacity = noCapacity(system, largest)
  for (const clients of counts) {
    log(`socket: ${system.name}, ${clients} clients`)
    const row: SocketRow = { system: system.name, clients, ok: false }
    rows.push(row)
    const measured = await runAtClientCount(
      system,
      ctx,
      row,
      clients === largest,
      referenceRates,
      options,
      log,
    )
    if (measured) capacity = measured
  }
  return { rows, capacity }
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
  const listRateMs = ctx.scenario.listRate
  const graceMs = windowGraceMs(options.quick, listRateMs)
  let capacity: CapacityReport | undefined
  const begin = performance.now()
  let running: RunningSocketSystem | undefined
  let fleet: NativeClientFleet | undefined
  try {
    running = await system.start(ctx)
    log(`  started in ${Math.round(performance.now() - begin)} ms`)
    fleet = new NativeClientFleet({
      url: running.url,
      protocol: system.protocol,
      clients,
      scenario: ctx.scenario,
    })
    const wc: WindowContext = { fleet, running, listRateMs, graceMs }
    row.pinned = running.pinned
    await sleep(300)
    const rssBaseline = readRssBytes(running.pid)
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
  } catch (error) {
    row.error = errorText(error)
  } finally {
    fleet?.close()
    await running?.stop()
  }
  return capacity
}

export const HOSTILE_ROW = 'hostile bodies'

async function runHostile(
  ctx: RestTargetContext,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<HostileReport> {
  log(
    'hostile bodies: 10 connections sending the worst body each call accepts and 5 MiB uploads with and without a session, /healthz timed meanwhile',
  )
  const gateway = await startGatewayOverSandbox(ctx, uncachedRequest)
  try {
    return await runHostileBodies({
      url: gateway.url,
      pid: gateway.pid,
      seconds: options.hostileSeconds,
      warmupSeconds: options.quick ? 0.2 : 1,
    })
  } catch (error) {
    return {
      ok: false,
      error: errorText(error),
      connections: 10,
      seconds: 0,
      calls: [],
      requests: 0,
      requestsPerSecond: 0,
      hostileMs: { p50: Number.NaN, p99: Number.NaN, max: Number.NaN },
      healthzMs: { samples: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN },
    }
  } finally {
    await gateway.stop()
  }
}

/** The signed-in uploads row on the gateway, then the same uploads through the proxy floor; each on a sandbox of its own. */
async function runUploadsPhase(
  cores: Cores,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Pick<BenchResult, 'uploads' | 'uploadsFloor'>> {
  const floor = restTargets.find((target) => target.name === PROXIED_FLOOR)!
  const uploadsThrough = (name: string, start: (ctx: RestTargetContext) => Promise<RunningRestTarget>) => {
    log(
      `signed-in uploads through ${name}: /healthz quiet for ${options.uploadsSeconds} s, then while 10 signed-in users send 5 MiB uploads for ${options.uploadsSeconds} s; RSS settled before and at least ${options.uploadsSettleSeconds} s after`,
    )
    return withSandbox(cores, options, async (ctx) => {
      try {
        const target = await start(ctx)
        try {
          return await runSignedInUploads({
            gatewayUrl: target.url,
            sandboxUrl: (await ctx.sandbox()).url,
            pid: target.pid,
            seconds: options.uploadsSeconds,
            settleSeconds: options.uploadsSettleSeconds,
            settleLimitSeconds: options.uploadsSettleLimitSeconds,
          })
        } finally {
          await target.stop()
        }
      } catch (error) {
        return failedUploads(errorText(error))
      }
    })
  }
  return {
    uploads: await uploadsThrough('the gateway', (ctx) =>
      startGatewayOverSandbox(ctx, uncachedRequest, { env: SIGNED_IN_UPLOAD_ENV }),
    ),
    uploadsFloor: await uploadsThrough(PROXIED_FLOOR, async (ctx) => {
      const started = await floor.start(ctx)
      if ('unavailable' in started) throw new Error(started.unavailable)
      return started
    }),
  }
}

const failedUploads = (error: string): SignedInUploadsReport => ({
  ok: false,
  error,
  connections: 10,
  uploadBytes: 0,
  seconds: 0,
  statuses: {},
  healthzQuietMs: { samples: 0, p99: Number.NaN },
  healthzLoadedMs: { samples: 0, p99: Number.NaN },
  ratio: Number.NaN,
  rssMb: { before: Number.NaN, peak: Number.NaN, after: Number.NaN, afterSeconds: 0 },
})

/** The proxied call quiet and beside busy loops, on a sandbox of its own. */
async function runProxiedPhase(
  cores: Cores,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<BenchResult['proxied']> {
  const target = (name: string): RestTarget => restTargets.find((candidate) => candidate.name === name)!
  log(
    `proxied: ${PROXIED_FLOOR} and ${PROXIED_GATEWAY}, quiet and beside one busy loop a core, ${options.proxied.rounds} rounds`,
  )
  return withSandbox(cores, options, (ctx) =>
    runProxiedContention(
      { gateway: target(PROXIED_GATEWAY), floor: target(PROXIED_FLOOR) },
      ctx,
      options.proxied,
      log,
    ),
  )
}

type Phase = <T>(name: string, work: () => Promise<T>) => Promise<T>

/** Every ramped socket system in turn, then the interleaved rounds of the compared ones. */
async function runSocketPhases(
  baseCtx: Omit<SocketSystemContext, 'scenario'>,
  options: BenchOptions,
  phase: Phase,
  log: (line: string) => void,
): Promise<Pick<BenchResult, 'socket' | 'capacity' | 'systemScenarios' | 'rounds'>> {
  const socket: SocketRow[] = []
  const capacity: CapacityReport[] = []
  const systemScenarios: BenchResult['systemScenarios'] = {}
  const scenarioOf = (system: SocketSystem): Scenario => {
    const scenario = variantScenario(options.scenario, system.variant)
    systemScenarios[system.name] = { listRate: scenario.listRate, depth: scenario.rates.DEPTH > 0 }
    return scenario
  }
  if (options.phases.includes('sockets'))
    await phase('sockets', async () => {
      let referenceRates: ReferenceRate[] = []
      for (const system of socketSystems.filter((s) => !s.roundsOnly && selected(s.name, options.only))) {
        const ctx = { ...baseCtx, scenario: scenarioOf(system) }
        const result = await runSocketSystem(system, ctx, referenceRates, options, log)
        socket.push(...result.rows)
        capacity.push(result.capacity)
        // The first system is the reference: every later one is also measured at the rates it held.
        if (capacity.length === 1) referenceRates = heldRates(result.capacity, options)
      }
    })
  const roundSystems = ROUND_SYSTEMS.map((name) =>
    socketSystems.find((system) => system.name === name)!,
  ).filter((system) => selected(system.name, options.only))
  if (roundSystems.length === 0 || options.socketRounds === 0 || !options.phases.includes('rounds'))
    return { socket, capacity, systemScenarios }
  const reference = capacity.find((report) => report.system === GATEWAY)
  const rates = roundRates(reference, options.rampGrid[options.rampStart]!)
  roundSystems.forEach(scenarioOf)
  const ratesFrom = reference
    ? `the highest step ${GATEWAY} held with the generator under its bound, and half of it`
    : `no ${GATEWAY} ramp in this run: its first step`
  const rounds = await phase('rounds', () => runRounds(roundSystems, baseCtx, rates, ratesFrom, options, log))
  return { socket, capacity, systemScenarios, rounds }
}

/**
 * The REST rounds through wrk, then the hostile bodies. Without wrk every REST row says why: a Node
 * generator would run out of its core before the targets do, so it could measure none of them.
 */
async function runRestPhase(
  cores: Cores,
  options: BenchOptions,
  phase: Phase,
  log: (line: string) => void,
): Promise<Pick<BenchResult, 'rest' | 'hostile'>> {
  const wrk = ensureWrk(options.installMissing)
  return withSandbox(cores, options, async (restCtx) => {
    const targets = restTargets.filter((t) => selected(t.name, options.only))
    const rest = wrk.ok
      ? await phase('rest', () => runRestRounds(targets, restCtx, options, log))
      : targets.map((target) => ({
          target: target.name,
          note: target.note,
          ok: false,
          unavailable: wrk.reason,
        }))
    const hostile = selected(HOSTILE_ROW, options.only)
      ? await phase('hostile', () => runHostile(restCtx, options, log))
      : undefined
    return { rest, hostile }
  })
}

export async function runBench(
  options: BenchOptions,
  log: (line: string) => void = console.log,
): Promise<BenchResult> {
  const began = performance.now()
  // The socket windows' generator is compiled first: without a compiler the run stops here, not an hour in.
  if (options.phases.some((name) => name === 'sockets' || name === 'rounds'))
    log(`native load generator: built ${path.relative(loadtestsDir, buildNativeGenerator())}`)
  const runId = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`
  // Counted before pinning: afterwards this process sees only its own core.
  const cores = os.availableParallelism()
  const serverCpus = options.pin && cores > 1 && pinSelf('0') ? '1' : undefined
  const startedAt = new Date().toISOString()
  const loadAtStart = os.loadavg()[0]!
  // what else keeps the cores busy right now: the load average still remembers work that has ended
  const idleCheck = readMachineTicks()
  await sleep(2000)
  const ticksAtStart = readMachineTicks()
  log(
    serverCpus
      ? 'pinning: load generator, tick feed, sandbox and Redis on core 0, every server under test on core 1'
      : `${options.pin ? 'pinning unavailable' : 'no pinning (--no-pin)'}: load generator and servers share the cores`,
  )

  const generatorCpus = serverCpus ? '0' : undefined
  const phaseSeconds: Record<string, number> = {}
  const phase: Phase = async (name, work) => {
    const start = performance.now()
    try {
      return await work()
    } finally {
      phaseSeconds[name] = (performance.now() - start) / 1000
    }
  }
  // The Redis systems' broker: the bench's own, on the generator's core, unless one was named.
  const runUnder = pinnedUnder(generatorCpus)
  const ownRedis = options.redisUrl ? undefined : await startRedisChild({ runUnder })
  const redisUrl = options.redisUrl ?? ownRedis!.url
  let cluster: Promise<RedisClusterChild> | undefined
  const baseCtx: Omit<SocketSystemContext, 'scenario'> = {
    runId,
    serverCpus,
    redisUrl,
    redisClusterUrl: async () => (await (cluster ??= startRedisCluster({ runUnder }))).url,
  }

  const placement: Cores = { runId, serverCpus, generatorCpus }
  let sockets: Awaited<ReturnType<typeof runSocketPhases>>
  let rest: Awaited<ReturnType<typeof runRestPhase>> &
    Pick<BenchResult, 'uploads' | 'uploadsFloor' | 'proxied'>
  try {
    sockets = await runSocketPhases(baseCtx, options, phase, log)
    rest = options.phases.includes('rest') ? await runRestPhase(placement, options, phase, log) : { rest: [] }
    if (options.phases.includes('proxied'))
      rest.proxied = await phase('proxied', () => runProxiedPhase(placement, options, log))
    if (options.phases.includes('uploads'))
      Object.assign(rest, await phase('uploads', () => runUploadsPhase(placement, options, log)))
  } finally {
    await (await cluster?.catch(() => undefined))?.stop()
    await ownRedis?.kill()
  }

  const cpus = os.cpus()
  const { outFile: _outFile, resultsMd: _resultsMd, ...recordedOptions } = options
  return {
    runId,
    startedAt,
    command: ['npm run bench --', ...process.argv.slice(2)].join(' ').replace(/ --$/, ''),
    durationSeconds: (performance.now() - began) / 1000,
    machine: {
      cpuModel: cpus[0]?.model ?? 'unknown',
      cores,
      memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
      node: process.version,
      kernel: os.release(),
    },
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    busyBeforePercent: busyPercent(idleCheck, ticksAtStart),
    stealPercent: stealPercent(ticksAtStart, readMachineTicks()),
    pinning: serverCpus ? { client: generatorCpus!, server: serverCpus } : 'unavailable',
    options: recordedOptions,
    ...sockets,
    redis: { url: redisUrl, own: Boolean(ownRedis), pinned: ownRedis?.pinned ?? false },
    phaseSeconds,
    ...rest,
  }
}

export function optionsFromArgs(argv: string[]): BenchOptions & { printOptions: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      clients: { type: 'string' },
      seconds: { type: 'string' },
      systems: { type: 'string' },
      'no-install': { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      out: { type: 'string' },
      'results-md': { type: 'string' },
      'redis-url': { type: 'string' },
      'print-options': { type: 'boolean', default: false },
      phases: { type: 'string', default: BENCH_PHASES.join(',') },
    },
  })
  const quick = values.quick ?? false
  const measureSeconds = values.seconds ? Number(values.seconds) : quick ? 0.7 : 6
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const clientCounts = values.clients ? values.clients.split(',').map(Number) : quick ? [200] : [10000]
  if (clientCounts.some((count) => !Number.isInteger(count) || count < 1))
    throw new Error(`--clients takes whole numbers above 0, got "${values.clients}"`)
  if (!(measureSeconds > 0)) throw new Error(`--seconds takes a number above 0, got "${values.seconds}"`)
  const phases = values.phases.split(',').map((name) => name.trim())
  if (!phases.every((name): name is BenchPhase => (BENCH_PHASES as readonly string[]).includes(name)))
    throw new Error(`--phases takes some of ${BENCH_PHASES.join(', ')}, got "${values.phases}"`)
  return {
    printOptions: values['print-options'] ?? false,
    quick,
    clientCounts,
    warmupMs: quick ? 300 : 2000,
    measureMs: measureSeconds * 1000,
    // steps of about ×1.5; the ramp starts at ×0.02 and walks down from it when that does not hold
    rampGrid: quick
      ? [0.25, 1]
      : [0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.045, 0.07, 0.1, 0.15, 0.2, 0.3, 0.45, 0.7, 1],
    rampStart: quick ? 0 : 4,
    rampRefinements: quick ? 1 : 2,
    rampSettleMs: quick ? 150 : 700,
    rampMeasureMs: quick ? 500 : 2000,
    drainWindows: quick ? 4 : 25,
    socketRounds: quick ? 1 : 3,
    roundMeasureMs: quick ? 500 : 3000,
    restSeconds: quick ? 1 : 12,
    restRounds: quick ? 1 : 4,
    restConnections: quick ? 20 : 50,
    phases,
    serialRequests: quick ? 100 : 2000,
    proxied: {
      rounds: quick ? 1 : 3,
      warmupSeconds: quick ? 1 : 5,
      seconds: quick ? 1 : 3,
      connections: quick ? 20 : 50,
      serialRequests: quick ? 100 : 1000,
    },
    hostileSeconds: quick ? 1 : 5,
    uploadsSeconds: quick ? 2 : 10,
    // the issue's question is the memory a minute after a burst
    uploadsSettleSeconds: quick ? 2 : 60,
    // an idle gateway's first full collection can take a minute or more to come
    uploadsSettleLimitSeconds: quick ? 5 : 180,
    installMissing: !values['no-install'],
    pin: !values['no-pin'],
    only: values.systems?.split(',').map((name) => name.trim()),
    // none named: the bench starts its own redis-server on the generator's core
    redisUrl: values['redis-url'],
    outFile: values.out ?? path.join(loadtestsDir, 'results', `bench-${quick ? 'quick-' : ''}${stamp}.json`),
    resultsMd: values['results-md'] ?? (quick ? undefined : path.join(loadtestsDir, 'RESULTS.md')),
    scenario: defaultScenario,
  }
}

/**
 * Writes RESULTS.md from a run's JSON, keeping the sections of separate runs the file held, formatted
 * like every other file so the prettier check stays clean.
 */
async function writeResultsMd(result: BenchResult, jsonFile: string, target: string): Promise<void> {
  const previous = existsSync(target) ? readFileSync(target, 'utf8') : ''
  const markdown = keepSeparateRuns(previous, renderResultsMd(result, path.relative(loadtestsDir, jsonFile)))
  const config = await prettier.resolveConfig(target)
  writeFileSync(target, await prettier.format(markdown, { ...config, filepath: target }))
  console.log(`wrote ${path.relative(process.cwd(), target) || target}`)
}

if (isMainModule(import.meta.url) && process.argv[2] === '--render') {
  // `npm run bench -- --render results/bench-….json [RESULTS.md]`: rewrite RESULTS.md from a finished run.
  const jsonFile = path.resolve(process.argv[3] ?? '')
  const result = JSON.parse(readFileSync(jsonFile, 'utf8')) as BenchResult
  await writeResultsMd(
    result,
    jsonFile,
    path.resolve(process.argv[4] ?? path.join(loadtestsDir, 'RESULTS.md')),
  )
} else if (isMainModule(import.meta.url)) {
  const { printOptions, ...options } = optionsFromArgs(process.argv.slice(2))
  if (printOptions) {
    // What the harness would run with, for checking that flags arrive through npm.
    console.log(JSON.stringify(options))
    process.exit(0)
  }
  const began = performance.now()
  const result = await runBench(options, (line) =>
    console.error(`[${((performance.now() - began) / 1000).toFixed(0).padStart(3)} s] ${line}`),
  )
  // the figures as RESULTS.md words them, whether or not this run writes that file
  console.log(renderResultsMd(result, path.relative(loadtestsDir, options.outFile)))
  mkdirSync(path.dirname(options.outFile), { recursive: true })
  writeFileSync(options.outFile, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`\nwrote ${path.relative(process.cwd(), options.outFile) || options.outFile}`)
  if (options.resultsMd) await writeResultsMd(result, options.outFile, options.resultsMd)
  // Lingering client sockets or timers must not keep a finished run alive.
  process.exit(
    result.socket.every((row) => row.ok) &&
      result.capacity.every((report) => !report.error) &&
      result.rest.every((row) => row.ok || row.unavailable) &&
      (!result.hostile || result.hostile.ok) &&
      (!result.uploads || result.uploads.ok) &&
      (!result.uploadsFloor || result.uploadsFloor.ok) &&
      (!result.proxied || result.proxied.ok)
      ? 0
      : 1,
  )
}
