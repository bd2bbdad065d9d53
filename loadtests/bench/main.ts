/**
 * `npm run bench [-- --quick] [-- --clients 1000,5000] [-- --systems "bare ws"] [-- --no-install]`
 *
 * Runs the same socket scenario against every registered socket system, then autocannon against
 * every REST target, in one run: this process (the load generator) on core 0, servers on core 1.
 * Prints a table, writes results/bench-<time>.json and (full runs, or --results-md) RESULTS.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import * as prettier from 'prettier'
import { LeanClientFleet, type ConnectReport, type StormReport, type WindowReport } from './lean-client'
import { defaultScenario, type Scenario } from './scenario'
import {
  socketSystems,
  type BusProbe,
  type RunningSocketSystem,
  type SocketSystem,
  type SocketSystemContext,
} from './socket-systems'
import { restTargets, sharedSandbox, type RestTarget, type RestTargetContext } from './rest-targets'
import { busyPercent, readCpuMicros, readMachineTicks, readRssBytes, stealPercent } from './proc-stats'
import { measureSerialLatency, type SerialLatency } from './serial-latency'
import { isMainModule, loadtestsDir, pinSelf } from './child-process'
import { machineNote, renderResultsMd } from './results-md'
import { formatNumber, restCells, socketCells, stormCell, table } from './report-format'

export interface BenchOptions {
  quick: boolean
  /** Each count is one point at the scenario's full rates; the largest also gets the saturation ramp. */
  clientCounts: number[]
  warmupMs: number
  measureMs: number
  /** Multipliers of every tick rate tried in turn, at the largest client count, until p99 passes 50 ms. */
  rampScales: number[]
  rampSettleMs: number
  rampMeasureMs: number
  /** Longest wait, after the ramp, for queues built past saturation to drain. */
  drainMaxMs: number
  /** The reconnect storm spreads every socket's reconnect over this span. */
  stormSpreadMs: number
  /** measured seconds per REST target, split evenly over the rounds */
  restSeconds: number
  /** times each REST target is started and measured, interleaved with the others */
  restRounds: number
  restConnections: number
  /** Requests sent one at a time for the unqueued latency figure. */
  serialRequests: number
  installMissing: boolean
  /** Only systems and targets whose names include one of these. */
  only: string[] | undefined
  redisUrl: string
  outFile: string
  /** Where to write RESULTS.md; full runs default to loadtests/RESULTS.md, quick runs write none. */
  resultsMd: string | undefined
  scenario: Scenario
}

export interface SocketRow {
  system: string
  clients: number
  ok: boolean
  error?: string
  pinned?: boolean
  connect?: ConnectReport
  /** Time until every socket had its first frame after the initial subscribe. */
  firstFrame?: { ms: number; missing: number }
  window?: WindowReport
  serverCpuPercent?: number
  serverCpuMicrosPerDelivery?: number
  rssBaselineMb?: number
  rssPerConnectionKb?: number
}

export interface RampStep {
  rateScale: number
  expectedPerSecond: number
  deliveriesPerSecond: number
  p50: number
  p99: number
  p999: number
  serverCpuPercent?: number
  serverCpuMicrosPerDelivery?: number
  clientCpuPercent: number
}

/** The largest client count's ramp: the tick rate raised step by step until p99 passes 50 ms. */
export interface SaturationReport {
  system: string
  clients: number
  steps: RampStep[]
  /** The step with the highest delivery rate whose p99 stayed at or under 50 ms. */
  best: RampStep | null
  /** A window at half the best step's rate (half the first step's when none held): the latency target is judged here. */
  half?: RampStep & { rssPerConnectionKb?: number }
  /** All sockets dropped and reconnected (spread over a few seconds) at half saturation. */
  storm?: StormReport
  /** Redis SUBSCRIBE calls during the storm and the system's channels after it (Redis systems only). */
  stormBus?: { subscribeCommands: number; channels: number; topics: number }
  error?: string
}

export interface RestRow {
  target: string
  note?: string
  ok: boolean
  unavailable?: string
  error?: string
  pinned?: boolean
  /** over every round together */
  requestsPerSecond?: number
  /** each round's own rate, to show how much the machine wandered */
  roundsPerSecond?: number[]
  latencyMs?: { p50: number; p90: number; p99: number; p999: number; max: number }
  errors?: number
  non2xx?: number
  serverCpuMicrosPerRequest?: number
  /** One request at a time over one connection: the latency without queueing, to 0.001 ms. */
  serialLatencyMs?: SerialLatency
}

export interface BenchResult {
  runId: string
  startedAt: string
  command: string
  machine: { cpuModel: string; cores: number; memoryGb: number; node: string; kernel: string }
  /** 1-minute load average before and after the run: other work on the machine skews every figure. */
  loadAverage: { start: number; end: number }
  /** percent of all cores busy in the 2 s before the run began; absent on older runs */
  busyBeforePercent?: number
  /** percent of CPU time the hypervisor took for other guests during the run; absent on older runs */
  stealPercent?: number
  pinning: { client: string; server: string } | 'unavailable'
  options: Omit<BenchOptions, 'outFile' | 'resultsMd'>
  socket: SocketRow[]
  saturation: SaturationReport[]
  rest: RestRow[]
}

const SATURATION_P99_MS = 50
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

function selected(name: string, only: string[] | undefined): boolean {
  return !only || only.some((part) => name.toLowerCase().includes(part.toLowerCase()))
}

async function measureWindow(
  fleet: LeanClientFleet,
  running: RunningSocketSystem,
  ms: number,
): Promise<{ window: WindowReport; cpuMicros?: number }> {
  const cpuBefore = readCpuMicros(running.pid)
  const endWindow = fleet.startWindow()
  await sleep(ms)
  const window = endWindow()
  const cpuAfter = readCpuMicros(running.pid)
  return {
    window,
    cpuMicros: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
  }
}

function rampStep(rateScale: number, window: WindowReport, cpuMicros: number | undefined): RampStep {
  return {
    rateScale,
    expectedPerSecond: window.expectedPerSecond * rateScale,
    deliveriesPerSecond: window.deliveriesPerSecond,
    p50: window.latencyMs.p50,
    p99: window.latencyMs.p99,
    p999: window.latencyMs.p999,
    serverCpuPercent: cpuMicros === undefined ? undefined : (cpuMicros / 1e6 / window.seconds) * 100,
    serverCpuMicrosPerDelivery:
      cpuMicros !== undefined && window.deliveries > 0 ? cpuMicros / window.deliveries : undefined,
    clientCpuPercent: window.clientCpuPercent,
  }
}

/** A step counts toward saturation only when p99 held and the clients got nearly every frame. */
function stepHeld(step: RampStep): boolean {
  return step.p99 <= SATURATION_P99_MS && step.deliveriesPerSecond >= 0.95 * step.expectedPerSecond
}

/**
 * On a connected, subscribed fleet with the ticks at scale `rampScales[0]`: raise the rate until p99
 * passes 50 ms, then drop to half the best rate, let queues drain, measure, and run the storm there.
 */
async function runSaturation(
  system: SocketSystem,
  fleet: LeanClientFleet,
  running: RunningSocketSystem,
  clients: number,
  rssBaseline: number | undefined,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<SaturationReport> {
  const report: SaturationReport = { system: system.name, clients, steps: [], best: null }
  for (const scale of options.rampScales) {
    await running.setRateScale(scale)
    await sleep(options.rampSettleMs)
    let { window, cpuMicros } = await measureWindow(fleet, running, options.rampMeasureMs)
    let step = rampStep(scale, window, cpuMicros)
    if (!stepHeld(step)) {
      // One retry: on a shared machine one descheduled moment must not end the ramp.
      ;({ window, cpuMicros } = await measureWindow(fleet, running, options.rampMeasureMs))
      step = rampStep(scale, window, cpuMicros)
    }
    report.steps.push(step)
    log(
      `  ramp ×${scale}: ${Math.round(step.deliveriesPerSecond)}/s of ${Math.round(step.expectedPerSecond)}, p99 ${step.p99} ms`,
    )
    if (!stepHeld(step)) break
    if (!report.best || step.deliveriesPerSecond > report.best.deliveriesPerSecond) report.best = step
  }
  // With no step held (an overloaded machine), the storm still runs, at half the lowest rate.
  const halfScale = (report.best ?? report.steps[0]!).rateScale / 2
  await running.setRateScale(halfScale)
  // Queues built up past saturation must drain before the half-rate window means anything.
  const drainDeadline = performance.now() + options.drainMaxMs
  while (performance.now() < drainDeadline) {
    const { window } = await measureWindow(fleet, running, 500)
    if (window.latencyMs.p99 <= SATURATION_P99_MS) break
  }
  const rssBefore = readRssBytes(running.pid)
  const { window, cpuMicros } = await measureWindow(fleet, running, options.measureMs)
  report.half = { ...rampStep(halfScale, window, cpuMicros) }
  if (rssBefore !== undefined && rssBaseline !== undefined && fleet.openSockets > 0) {
    report.half.rssPerConnectionKb = (rssBefore - rssBaseline) / 1024 / fleet.openSockets
  }

  const busBefore: BusProbe | undefined = await running.busProbe?.()
  report.storm = await fleet.reconnectStorm({ spreadMs: options.stormSpreadMs, timeoutMs: 45_000 })
  const busAfter = await running.busProbe?.()
  if (busBefore && busAfter) {
    report.stormBus = {
      subscribeCommands: busAfter.subscribeCommands - busBefore.subscribeCommands,
      channels: busAfter.channels,
      topics: fleet.topicCount,
    }
  }
  return report
}

/**
 * One system, a fresh server per client count. The largest count also runs the saturation ramp
 * (before its full-rate window, so the ramp starts from a server that has no backlog).
 */
async function runSocketSystem(
  system: SocketSystem,
  ctx: SocketSystemContext,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<{ rows: SocketRow[]; saturation: SaturationReport }> {
  const rows: SocketRow[] = []
  const largest = Math.max(...options.clientCounts)
  let saturation: SaturationReport = { system: system.name, clients: largest, steps: [], best: null }
  for (const clients of options.clientCounts) {
    log(`socket: ${system.name}, ${clients} clients`)
    const row: SocketRow = { system: system.name, clients, ok: false }
    rows.push(row)
    const begin = performance.now()
    let running: RunningSocketSystem | undefined
    let fleet: LeanClientFleet | undefined
    try {
      running = await system.start(ctx)
      log(`  started in ${Math.round(performance.now() - begin)} ms`)
      fleet = new LeanClientFleet({
        url: running.url,
        protocol: system.protocol,
        clients,
        scenario: ctx.scenario,
      })
      row.pinned = running.pinned
      await sleep(300)
      const rssBaseline = readRssBytes(running.pid)
      row.rssBaselineMb = rssBaseline === undefined ? undefined : rssBaseline / 2 ** 20

      row.connect = await fleet.connect()
      const ramp = clients === largest && options.rampScales.length > 0
      await running.setRateScale(ramp ? options.rampScales[0]! : 1)
      await running.startTicks()
      row.firstFrame = await fleet.waitUntilAllReceived(15_000)
      if (ramp) {
        try {
          saturation = await runSaturation(system, fleet, running, clients, rssBaseline, options, log)
        } catch (error) {
          saturation.error = errorText(error)
        }
        await running.setRateScale(1)
      }
      await sleep(options.warmupMs)

      const { window, cpuMicros } = await measureWindow(fleet, running, options.measureMs)
      const rssLoaded = readRssBytes(running.pid)
      row.window = window
      if (cpuMicros !== undefined) {
        row.serverCpuPercent = (cpuMicros / 1000 / (window.seconds * 1000)) * 100
        row.serverCpuMicrosPerDelivery = window.deliveries > 0 ? cpuMicros / window.deliveries : undefined
      }
      if (rssBaseline !== undefined && rssLoaded !== undefined && row.connect.opened > 0) {
        row.rssPerConnectionKb = (rssLoaded - rssBaseline) / 1024 / row.connect.opened
      }
      row.ok = row.connect.opened > 0 && window.deliveries > 0
      if (!row.ok) {
        const said = (await running.diagnose?.().catch(errorText)) ?? ''
        row.error =
          `opened ${row.connect.opened} sockets, received ${window.deliveries} frames ${said}`.trim()
      }
    } catch (error) {
      row.error = errorText(error)
    } finally {
      fleet?.close()
      await running?.stop()
    }
  }
  return { rows, saturation }
}

/** One target's figures from one round: started, warmed, measured for one window, stopped. */
export interface RestWindow {
  pinned: boolean
  seconds: number
  requests: number
  non2xx: number
  errors: number
  cpuMicros?: number
  latencyMs: NonNullable<RestRow['latencyMs']>
  serialLatencyMs?: SerialLatency
}

async function runRestWindow(
  target: RestTarget,
  ctx: RestTargetContext,
  options: BenchOptions,
  withSerial: boolean,
  log: (line: string) => void,
): Promise<RestWindow | { unavailable: string }> {
  const begin = performance.now()
  const started = await target.start(ctx)
  if ('unavailable' in started) return started
  log(`  ${target.name}: started in ${Math.round(performance.now() - begin)} ms`)
  try {
    const { request } = started
    // An unmeasured run first, long enough for the JIT to settle: each round starts a fresh process,
    // and a fixed request count would leave the server with the most code least optimised.
    await autocannon({
      url: started.url + request.path,
      connections: options.restConnections,
      duration: options.warmupMs / 1000,
      method: request.method,
      body: request.body,
      headers: request.headers,
    })
    const cpuBefore = started.pid === undefined ? undefined : readCpuMicros(started.pid)
    const result = await autocannon({
      url: started.url + request.path,
      connections: options.restConnections,
      duration: options.restSeconds / options.restRounds,
      method: request.method,
      body: request.body,
      headers: request.headers,
    })
    const cpuAfter = started.pid === undefined ? undefined : readCpuMicros(started.pid)
    return {
      pinned: started.pinned,
      seconds: result.duration,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      cpuMicros: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
      latencyMs: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        p999: result.latency.p99_9,
        max: result.latency.max,
      },
      serialLatencyMs: withSerial
        ? await measureSerialLatency(started.url, request, options.serialRequests)
        : undefined,
    }
  } finally {
    await started.stop()
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

/** Sums a target's rounds: req/s and CPU over every window together, latency percentiles as the median round's. */
export function combineRestWindows(row: RestRow, windows: RestWindow[]): RestRow {
  const seconds = windows.reduce((sum, window) => sum + window.seconds, 0)
  const requests = windows.reduce((sum, window) => sum + window.requests, 0)
  const non2xx = windows.reduce((sum, window) => sum + window.non2xx, 0)
  const errors = windows.reduce((sum, window) => sum + window.errors, 0)
  const cpu = windows.every((window) => window.cpuMicros !== undefined)
    ? windows.reduce((sum, window) => sum + window.cpuMicros!, 0)
    : undefined
  const latency = (key: keyof RestWindow['latencyMs']): number =>
    median(windows.map((window) => window.latencyMs[key]))
  const ok = requests > 0 && non2xx === 0
  return {
    ...row,
    ok,
    pinned: windows.every((window) => window.pinned),
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    roundsPerSecond: windows.map((window) => (window.seconds > 0 ? window.requests / window.seconds : 0)),
    latencyMs: {
      p50: latency('p50'),
      p90: latency('p90'),
      p99: latency('p99'),
      p999: latency('p999'),
      max: latency('max'),
    },
    errors,
    non2xx,
    serverCpuMicrosPerRequest: cpu !== undefined && requests > 0 ? cpu / requests : undefined,
    serialLatencyMs: windows.find((window) => window.serialLatencyMs)?.serialLatencyMs,
    ...(ok ? {} : { error: `${requests} requests, ${non2xx} not 2xx, ${errors} errors` }),
  }
}

/**
 * Every target in turn, round after round, so a slow spell of a shared machine lands on all of them
 * alike instead of on whichever target happened to be measured then.
 */
async function runRestRounds(
  targets: RestTarget[],
  ctx: RestTargetContext,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<RestRow[]> {
  const windows = new Map<string, RestWindow[]>()
  const rows = new Map<string, RestRow>(
    targets.map((target) => [target.name, { target: target.name, note: target.note, ok: false }]),
  )
  for (let round = 0; round < options.restRounds; round++) {
    log(`rest: round ${round + 1} of ${options.restRounds}`)
    for (const target of targets) {
      const row = rows.get(target.name)!
      if (row.unavailable || row.error) continue
      try {
        const window = await runRestWindow(target, ctx, options, round === 0, log)
        if ('unavailable' in window) {
          row.unavailable = window.unavailable
          continue
        }
        windows.set(target.name, [...(windows.get(target.name) ?? []), window])
      } catch (error) {
        row.error = errorText(error)
      }
    }
  }
  return targets.map((target) => {
    const row = rows.get(target.name)!
    const done = windows.get(target.name)
    return row.unavailable || row.error || !done ? row : combineRestWindows(row, done)
  })
}

export async function runBench(
  options: BenchOptions,
  log: (line: string) => void = console.log,
): Promise<BenchResult> {
  const runId = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`
  // Counted before pinning: afterwards this process sees only its own core.
  const cores = os.availableParallelism()
  const serverCpus = cores > 1 && pinSelf('0') ? '1' : undefined
  const startedAt = new Date().toISOString()
  const loadAtStart = os.loadavg()[0]!
  // what else keeps the cores busy right now: the load average still remembers work that has ended
  const idleCheck = readMachineTicks()
  await sleep(2000)
  const ticksAtStart = readMachineTicks()
  log(
    serverCpus
      ? 'pinning: load generator on core 0, servers on core 1'
      : 'pinning unavailable: load generator and servers share the cores',
  )

  const socketRows: SocketRow[] = []
  const saturation: SaturationReport[] = []
  const ctx: SocketSystemContext = {
    scenario: options.scenario,
    runId,
    serverCpus,
    redisUrl: options.redisUrl,
  }
  for (const system of socketSystems.filter((s) => selected(s.name, options.only))) {
    const result = await runSocketSystem(system, ctx, options, log)
    socketRows.push(...result.rows)
    saturation.push(result.saturation)
  }

  const restRows: RestRow[] = []
  const sandbox = sharedSandbox(serverCpus)
  const restCtx: RestTargetContext = {
    runId,
    serverCpus,
    installMissing: options.installMissing,
    sandbox: sandbox.get,
  }
  try {
    restRows.push(
      ...(await runRestRounds(
        restTargets.filter((t) => selected(t.name, options.only)),
        restCtx,
        options,
        log,
      )),
    )
  } finally {
    await sandbox.stop()
  }

  const cpus = os.cpus()
  const { outFile: _outFile, resultsMd: _resultsMd, ...recordedOptions } = options
  return {
    runId,
    startedAt,
    command: ['npm run bench --', ...process.argv.slice(2)].join(' ').replace(/ --$/, ''),
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
    pinning: serverCpus ? { client: '0', server: serverCpus } : 'unavailable',
    options: recordedOptions,
    socket: socketRows,
    saturation,
    rest: restRows,
  }
}

export function formatReport(result: BenchResult): string {
  const socketRows = result.socket.map((row) => [row.system, ...socketCells(row)])
  const restRows = result.rest.map((row) => [row.target, ...restCells(row)])
  const saturationRows = result.saturation.map((report): string[] => {
    if (report.error && !report.best)
      return [report.system, formatNumber(report.clients), `FAILED: ${report.error}`]
    const best = report.best
    const half = report.half
    return [
      report.system,
      formatNumber(report.clients),
      best ? `×${best.rateScale}` : 'none',
      best ? formatNumber(best.deliveriesPerSecond) : '-',
      best ? formatNumber(best.p99) : '-',
      half ? formatNumber(half.deliveriesPerSecond) : '-',
      half ? formatNumber(half.p99) : '-',
      half ? formatNumber(half.serverCpuMicrosPerDelivery, 2) : '-',
      half ? formatNumber(half.rssPerConnectionKb, 1) : '-',
      stormCell(report.storm),
      report.stormBus ? `${report.stormBus.subscribeCommands} / ${report.stormBus.topics} topics` : '-',
    ]
  })
  const m = result.machine
  return [
    `machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, node ${m.node}, kernel ${m.kernel}`,
    `pinning: ${result.pinning === 'unavailable' ? 'unavailable' : `client core ${result.pinning.client}, server core ${result.pinning.server}`}`,
    `command: ${result.command}`,
    `load average (1 min): ${result.loadAverage.start.toFixed(2)} at start, ${result.loadAverage.end.toFixed(2)} at end; steal ${formatNumber(result.stealPercent, 1)}%${
      machineNote(result) ? ` -- ${machineNote(result)}; treat the figures as skewed` : ''
    }`,
    '',
    'SOCKETS at the scenario rates (latency in ms, tick publish to client receive; CPU/RSS of the server process)',
    table(
      [
        'system',
        'clients',
        'expected/s',
        'delivered/s',
        'kept up',
        'p50',
        'p99',
        'p99.9',
        'cpu µs/msg',
        'srv cpu',
        'cli cpu',
        'KB/conn',
        'connect/s',
      ],
      socketRows,
    ),
    '',
    `SATURATION (tick rates raised at a fixed client count; best = highest delivered/s with p99 <= ${SATURATION_P99_MS} ms; half = a window at half that rate)`,
    table(
      [
        'system',
        'clients',
        'best rate',
        'best/s',
        'p99',
        'half/s',
        'half p99',
        'half µs/msg',
        'half KB/conn',
        'reconnect storm',
        'redis SUBSCRIBEs',
      ],
      saturationRows,
    ),
    '',
    'REST (autocannon, latency in ms)',
    table(
      [
        'target',
        'req/s',
        'rounds req/s',
        'p50',
        'p90',
        'p99',
        'p99.9',
        'serial p50',
        'serial p99',
        'cpu µs/req',
        'errors',
      ],
      restRows,
    ),
  ].join('\n')
}

export function optionsFromArgs(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      clients: { type: 'string' },
      seconds: { type: 'string' },
      systems: { type: 'string' },
      'no-install': { type: 'boolean', default: false },
      out: { type: 'string' },
      'results-md': { type: 'string' },
      'redis-url': { type: 'string' },
    },
  })
  const quick = values.quick ?? false
  const measureSeconds = values.seconds ? Number(values.seconds) : quick ? 1 : 6
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  return {
    quick,
    clientCounts: values.clients
      ? values.clients.split(',').map(Number)
      : quick
        ? [200]
        : [1000, 5000, 10000],
    warmupMs: quick ? 300 : 2000,
    measureMs: measureSeconds * 1000,
    rampScales: quick
      ? [0.25, 1]
      : [0.02, 0.03, 0.045, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.65, 0.8, 1],
    rampSettleMs: quick ? 200 : 700,
    rampMeasureMs: quick ? 700 : 2000,
    drainMaxMs: quick ? 1000 : 15_000,
    stormSpreadMs: quick ? 500 : 5000,
    restSeconds: quick ? 1 : 12,
    restRounds: quick ? 1 : 4,
    restConnections: quick ? 20 : 50,
    serialRequests: quick ? 200 : 2000,
    installMissing: !values['no-install'],
    only: values.systems?.split(',').map((name) => name.trim()),
    redisUrl: values['redis-url'] ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    outFile: values.out ?? path.join(loadtestsDir, 'results', `bench-${quick ? 'quick-' : ''}${stamp}.json`),
    resultsMd: values['results-md'] ?? (quick ? undefined : path.join(loadtestsDir, 'RESULTS.md')),
    scenario: defaultScenario,
  }
}

/** Writes RESULTS.md from a run's JSON, formatted like every other file so the prettier check stays clean. */
async function writeResultsMd(result: BenchResult, jsonFile: string, target: string): Promise<void> {
  const markdown = renderResultsMd(result, path.relative(loadtestsDir, jsonFile))
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
  const options = optionsFromArgs(process.argv.slice(2))
  const began = performance.now()
  const result = await runBench(options, (line) =>
    console.error(`[${((performance.now() - began) / 1000).toFixed(0).padStart(3)} s] ${line}`),
  )
  console.log(formatReport(result))
  mkdirSync(path.dirname(options.outFile), { recursive: true })
  writeFileSync(options.outFile, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`\nwrote ${path.relative(process.cwd(), options.outFile) || options.outFile}`)
  if (options.resultsMd) {
    const markdown = renderResultsMd(result, path.relative(loadtestsDir, options.outFile))
    // Formatted like every other file, so the repository's prettier check stays clean.
    const config = await prettier.resolveConfig(options.resultsMd)
    writeFileSync(
      options.resultsMd,
      await prettier.format(markdown, { ...config, filepath: options.resultsMd }),
    )
    console.log(`wrote ${path.relative(process.cwd(), options.resultsMd) || options.resultsMd}`)
  }
  // Lingering client sockets or timers must not keep a finished run alive.
  process.exit(
    result.socket.every((row) => row.ok) &&
      result.saturation.every((report) => !report.error) &&
      result.rest.every((row) => row.ok || row.unavailable)
      ? 0
      : 1,
  )
}
