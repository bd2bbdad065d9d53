/**
 * `npm run bench [-- --quick] [-- --clients 1000,5000] [-- --systems "bare ws"] [-- --no-install]`
 *
 * Runs the same socket scenario against every registered socket system, then autocannon against
 * every REST target, in one run: this process (the load generator) on core 0, servers on core 1.
 * Prints a table and writes results/bench-<time>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { LeanClientFleet, type ConnectReport, type StormReport, type WindowReport } from './lean-client'
import { defaultScenario, type Scenario } from './scenario'
import { socketSystems, type SocketSystem, type SocketSystemContext } from './socket-systems'
import { restTargets, type RestTarget, type RestTargetContext } from './rest-targets'
import { readCpuMicros, readRssBytes } from './proc-stats'
import { isMainModule, loadtestsDir, pinSelf } from './child-process'

export interface BenchOptions {
  quick: boolean
  clientCounts: number[]
  warmupMs: number
  measureMs: number
  restSeconds: number
  restConnections: number
  installMissing: boolean
  /** Only systems and targets whose names include one of these. */
  only: string[] | undefined
  redisUrl: string
  outFile: string
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
  storm?: StormReport
}

export interface RestRow {
  target: string
  note?: string
  ok: boolean
  unavailable?: string
  error?: string
  pinned?: boolean
  requestsPerSecond?: number
  latencyMs?: { p50: number; p90: number; p99: number; p999: number; max: number }
  errors?: number
  non2xx?: number
  serverCpuMicrosPerRequest?: number
}

export interface BenchResult {
  runId: string
  startedAt: string
  command: string
  machine: { cpuModel: string; cores: number; memoryGb: number; node: string; kernel: string }
  /** 1-minute load average before and after the run: other work on the machine skews every figure. */
  loadAverage: { start: number; end: number }
  pinning: { client: string; server: string } | 'unavailable'
  options: Omit<BenchOptions, 'outFile'>
  socket: SocketRow[]
  /** Per system: the highest delivery rate whose p99 stayed at or under 50 ms, across client counts. */
  saturation: Record<string, { deliveriesPerSecond: number; clients: number } | null>
  rest: RestRow[]
}

const SATURATION_P99_MS = 50
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

function selected(name: string, only: string[] | undefined): boolean {
  return !only || only.some((part) => name.toLowerCase().includes(part.toLowerCase()))
}

async function runSocketPoint(
  system: SocketSystem,
  clients: number,
  ctx: SocketSystemContext,
  options: BenchOptions,
): Promise<SocketRow> {
  const row: SocketRow = { system: system.name, clients, ok: false }
  const running = await system.start(ctx)
  const fleet = new LeanClientFleet({
    url: running.url,
    protocol: system.protocol,
    clients,
    scenario: ctx.scenario,
  })
  try {
    row.pinned = running.pinned
    await sleep(300)
    const rssBaseline = readRssBytes(running.pid)
    row.rssBaselineMb = rssBaseline === undefined ? undefined : rssBaseline / 2 ** 20

    row.connect = await fleet.connect()
    await running.startTicks()
    row.firstFrame = await fleet.waitUntilAllReceived(30_000)
    await sleep(options.warmupMs)

    const cpuBefore = readCpuMicros(running.pid)
    const endWindow = fleet.startWindow()
    await sleep(options.measureMs)
    const window = endWindow()
    const cpuAfter = readCpuMicros(running.pid)
    const rssLoaded = readRssBytes(running.pid)
    row.window = window
    if (cpuBefore !== undefined && cpuAfter !== undefined) {
      const cpuMicros = cpuAfter - cpuBefore
      row.serverCpuPercent = (cpuMicros / 1000 / (window.seconds * 1000)) * 100
      row.serverCpuMicrosPerDelivery = window.deliveries > 0 ? cpuMicros / window.deliveries : undefined
    }
    if (rssBaseline !== undefined && rssLoaded !== undefined && row.connect.opened > 0) {
      row.rssPerConnectionKb = (rssLoaded - rssBaseline) / 1024 / row.connect.opened
    }

    row.storm = await fleet.reconnectStorm()
    row.ok = row.connect.opened > 0 && window.deliveries > 0
    if (!row.ok) row.error = `opened ${row.connect.opened} sockets, received ${window.deliveries} frames`
  } finally {
    fleet.close()
    await running.stop()
  }
  return row
}

async function runRestTarget(
  target: RestTarget,
  ctx: RestTargetContext,
  options: BenchOptions,
): Promise<RestRow> {
  const row: RestRow = { target: target.name, note: target.note, ok: false }
  const started = await target.start(ctx)
  if ('unavailable' in started) return { ...row, unavailable: started.unavailable }
  try {
    row.pinned = started.pinned
    const { request } = started
    // A short unmeasured run first, so connection setup and JIT warm-up stay out of the figures.
    await autocannon({
      url: started.url + request.path,
      connections: options.restConnections,
      duration: 1,
      method: request.method,
      body: request.body,
      headers: request.headers,
    })
    const cpuBefore = started.pid === undefined ? undefined : readCpuMicros(started.pid)
    const result = await autocannon({
      url: started.url + request.path,
      connections: options.restConnections,
      duration: options.restSeconds,
      method: request.method,
      body: request.body,
      headers: request.headers,
    })
    const cpuAfter = started.pid === undefined ? undefined : readCpuMicros(started.pid)
    row.requestsPerSecond = result.requests.average
    row.latencyMs = {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      p999: result.latency.p99_9,
      max: result.latency.max,
    }
    row.errors = result.errors + result.timeouts
    row.non2xx = result.non2xx
    const total = result.requests.total
    if (cpuBefore !== undefined && cpuAfter !== undefined && total > 0) {
      row.serverCpuMicrosPerRequest = (cpuAfter - cpuBefore) / total
    }
    row.ok = total > 0 && result.non2xx === 0
    if (!row.ok) row.error = `${total} requests, ${result.non2xx} not 2xx, ${row.errors} errors`
  } finally {
    await started.stop()
  }
  return row
}

function saturationOf(rows: SocketRow[]): BenchResult['saturation'] {
  const saturation: BenchResult['saturation'] = {}
  for (const row of rows) {
    saturation[row.system] ??= null
    const window = row.window
    if (!row.ok || !window || !(window.latencyMs.p99 <= SATURATION_P99_MS)) continue
    const best = saturation[row.system]
    if (!best || window.deliveriesPerSecond > best.deliveriesPerSecond) {
      saturation[row.system] = { deliveriesPerSecond: window.deliveriesPerSecond, clients: row.clients }
    }
  }
  return saturation
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
  log(
    serverCpus
      ? 'pinning: load generator on core 0, servers on core 1'
      : 'pinning unavailable: load generator and servers share the cores',
  )

  const socketRows: SocketRow[] = []
  const ctx: SocketSystemContext = {
    scenario: options.scenario,
    runId,
    serverCpus,
    redisUrl: options.redisUrl,
  }
  for (const system of socketSystems.filter((s) => selected(s.name, options.only))) {
    for (const clients of options.clientCounts) {
      log(`socket: ${system.name}, ${clients} clients`)
      try {
        socketRows.push(await runSocketPoint(system, clients, ctx, options))
      } catch (error) {
        socketRows.push({ system: system.name, clients, ok: false, error: errorText(error) })
      }
    }
  }

  const restRows: RestRow[] = []
  const restCtx: RestTargetContext = { runId, serverCpus, installMissing: options.installMissing }
  for (const target of restTargets.filter((t) => selected(t.name, options.only))) {
    log(`rest: ${target.name}`)
    try {
      restRows.push(await runRestTarget(target, restCtx, options))
    } catch (error) {
      restRows.push({ target: target.name, note: target.note, ok: false, error: errorText(error) })
    }
  }

  const cpus = os.cpus()
  const { outFile: _outFile, ...recordedOptions } = options
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
    pinning: serverCpus ? { client: '0', server: serverCpus } : 'unavailable',
    options: recordedOptions,
    socket: socketRows,
    saturation: saturationOf(socketRows),
    rest: restRows,
  }
}

function formatNumber(value: number | undefined, digits = 0): string {
  if (value === undefined || Number.isNaN(value)) return '-'
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: string[]): string => cells.map((cell, i) => cell.padStart(widths[i]!)).join('  ')
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n')
}

function stormCell(storm: StormReport | undefined): string {
  if (!storm) return '-'
  const problems = [
    storm.failed ? `${formatNumber(storm.failed)} failed` : '',
    storm.missing ? `${formatNumber(storm.missing)} missing` : '',
  ].filter(Boolean)
  return problems.length === 0
    ? formatNumber(storm.ms)
    : `not done in ${formatNumber(storm.ms)} (${problems.join(', ')})`
}

export function formatReport(result: BenchResult): string {
  const socketRows = result.socket.map((row): string[] => {
    if (!row.ok || !row.window)
      return [row.system, String(row.clients), `FAILED: ${row.error ?? 'no figures'}`]
    const w = row.window
    return [
      row.system,
      formatNumber(row.clients),
      formatNumber(w.expectedPerSecond),
      formatNumber(w.deliveriesPerSecond),
      `${formatNumber((w.deliveriesPerSecond / w.expectedPerSecond) * 100)}%`,
      formatNumber(w.latencyMs.p50),
      formatNumber(w.latencyMs.p99),
      formatNumber(w.latencyMs.p999),
      formatNumber(row.serverCpuMicrosPerDelivery, 2),
      `${formatNumber(row.serverCpuPercent)}%`,
      `${formatNumber(w.clientCpuPercent)}%`,
      formatNumber(row.rssPerConnectionKb, 1),
      formatNumber(row.connect?.perSecond),
      stormCell(row.storm),
    ]
  })
  const restRows = result.rest.map((row): string[] => {
    if (row.unavailable) return [row.target, `skipped: ${row.unavailable}`]
    if (!row.ok || !row.latencyMs) return [row.target, `FAILED: ${row.error ?? 'no figures'}`]
    return [
      row.target,
      formatNumber(row.requestsPerSecond),
      formatNumber(row.latencyMs.p50, 1),
      formatNumber(row.latencyMs.p90, 1),
      formatNumber(row.latencyMs.p99, 1),
      formatNumber(row.latencyMs.p999, 1),
      formatNumber(row.serverCpuMicrosPerRequest, 1),
      String((row.errors ?? 0) + (row.non2xx ?? 0)),
    ]
  })
  const saturation = Object.entries(result.saturation).map(([system, best]) => [
    system,
    best ? `${formatNumber(best.deliveriesPerSecond)} /s at ${formatNumber(best.clients)} clients` : 'none',
  ])
  const m = result.machine
  return [
    `machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, node ${m.node}, kernel ${m.kernel}`,
    `pinning: ${result.pinning === 'unavailable' ? 'unavailable' : `client core ${result.pinning.client}, server core ${result.pinning.server}`}`,
    `command: ${result.command}`,
    `load average (1 min): ${result.loadAverage.start.toFixed(2)} at start, ${result.loadAverage.end.toFixed(2)} at end${
      Math.max(result.loadAverage.start, result.loadAverage.end) > 1
        ? ' -- other work shared the machine; treat the figures as skewed'
        : ''
    }`,
    '',
    'SOCKETS (latency in ms, tick publish to client receive; CPU/RSS of the server process)',
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
        'storm ms',
      ],
      socketRows,
    ),
    '',
    `SATURATION (highest delivery rate with p99 <= ${SATURATION_P99_MS} ms)`,
    table(['system', 'best'], saturation),
    '',
    'REST (autocannon, latency in ms)',
    table(['target', 'req/s', 'p50', 'p90', 'p99', 'p99.9', 'cpu µs/req', 'errors'], restRows),
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
      'redis-url': { type: 'string' },
    },
  })
  const quick = values.quick ?? false
  const measureSeconds = values.seconds ? Number(values.seconds) : quick ? 3 : 10
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  return {
    quick,
    clientCounts: values.clients
      ? values.clients.split(',').map(Number)
      : quick
        ? [200]
        : [1000, 5000, 10000],
    warmupMs: quick ? 1000 : 3000,
    measureMs: measureSeconds * 1000,
    restSeconds: quick ? 2 : measureSeconds,
    restConnections: quick ? 20 : 50,
    installMissing: !values['no-install'],
    only: values.systems?.split(',').map((name) => name.trim()),
    redisUrl: values['redis-url'] ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    outFile: values.out ?? path.join(loadtestsDir, 'results', `bench-${quick ? 'quick-' : ''}${stamp}.json`),
    scenario: defaultScenario,
  }
}

if (isMainModule(import.meta.url)) {
  const options = optionsFromArgs(process.argv.slice(2))
  const result = await runBench(options, (line) => console.error(line))
  console.log(formatReport(result))
  mkdirSync(path.dirname(options.outFile), { recursive: true })
  writeFileSync(options.outFile, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`\nwrote ${path.relative(process.cwd(), options.outFile) || options.outFile}`)
  // Lingering client sockets or timers must not keep a finished run alive.
  process.exit(
    result.socket.every((row) => row.ok) && result.rest.every((row) => row.ok || row.unavailable) ? 0 : 1,
  )
}
