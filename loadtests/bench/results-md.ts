/**
 * Renders loadtests/RESULTS.md from one run's JSON: the machine, the command, every figure, the
 * ratios against each baseline and each target of issues 4 and 5 beside the measured value.
 * The hand-written analysis between the ANALYSIS markers of the previous file is kept.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { BenchResult, RampStep, RestRow, SaturationReport, SocketRow } from './main'
import { formatNumber, restCells, socketCells, stormCell } from './report-format'
import { loadtestsDir } from './child-process'

export const GATEWAY_SYSTEMS = ['gateway (memory bus)', 'gateway (redis bus)'] as const
export const BARE_WS = 'bare ws'
export const SOCKET_IO = 'socket.io + redis adapter'
export const REST = {
  direct: 'sandbox direct',
  proxied: 'gateway proxy (uncached)',
  nginx: 'nginx proxy_pass',
  nodeProxy: 'bare node proxy',
  cached: 'gateway cached getAllSetting',
  bareRoute: 'bare fastify route',
} as const

const ANALYSIS_START = '<!-- ANALYSIS:START (kept when the harness rewrites this file) -->'
const ANALYSIS_END = '<!-- ANALYSIS:END -->'
const TARGET_CLIENTS = 10_000

export interface TargetCheck {
  issue: number
  target: string
  measured: string
  met: boolean | undefined
  /** Why a missed (or unmeasured) target was missed, from the figures themselves. */
  why?: string
}

const n = formatNumber
const ratioText = (value: number | undefined): string => (value === undefined ? '-' : `${value.toFixed(2)}×`)

/** A markdown table; a row shorter than the header (a failed or skipped one) is padded with empty cells. */
function mdTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string =>
    `| ${header.map((_, index) => (cells[index] ?? '').replace(/\|/g, '\\|')).join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

function socketRow(result: BenchResult, system: string, clients: number): SocketRow | undefined {
  return result.socket.find((row) => row.system === system && row.clients === clients && row.ok)
}
function saturationOf(result: BenchResult, system: string): SaturationReport | undefined {
  return result.saturation.find((report) => report.system === system)
}
function restRow(result: BenchResult, target: string): RestRow | undefined {
  return result.rest.find((row) => row.target === target && row.ok)
}

/** The highest rate step at which both systems held p99 <= 50 ms with every frame delivered. */
export function commonHeldStep(
  a: SaturationReport | undefined,
  b: SaturationReport | undefined,
): { scale: number; a: RampStep; b: RampStep } | undefined {
  if (!a?.best || !b?.best) return undefined
  const scale = Math.min(a.best.rateScale, b.best.rateScale)
  const stepA = a.steps.find((step) => step.rateScale === scale)
  const stepB = b.steps.find((step) => step.rateScale === scale)
  return stepA && stepB ? { scale, a: stepA, b: stepB } : undefined
}

function division(top: number | undefined, bottom: number | undefined): number | undefined {
  return top === undefined || bottom === undefined || bottom === 0 ? undefined : top / bottom
}

/** Steal above this share means the hypervisor ran other guests on these cores often enough to skew figures. */
const STEAL_NOTICEABLE_PERCENT = 3

/**
 * Why the machine was not the run's alone, if it was not: work already running when it started (the
 * run's own processes raise the load average later, so only the start counts), or CPU time the
 * hypervisor gave to other virtual machines.
 */
export function machineNote(result: BenchResult): string | undefined {
  const parts: string[] = []
  const busyBefore = result.busyBeforePercent
  if (busyBefore !== undefined ? busyBefore >= 25 : result.loadAverage.start > 1)
    parts.push(
      busyBefore !== undefined
        ? `other work kept the cores ${busyBefore.toFixed(0)}% busy just before it started`
        : `other work was running when it started (load average ${result.loadAverage.start.toFixed(1)})`,
    )
  if (result.stealPercent !== undefined && result.stealPercent >= STEAL_NOTICEABLE_PERCENT)
    parts.push(
      `the hypervisor took ${result.stealPercent.toFixed(1)}% of the CPU time for other guests (steal)`,
    )
  return parts.length > 0 ? `the machine was shared: ${parts.join(', and ')}` : undefined
}

function clientBound(step: RampStep | undefined): string | undefined {
  return step && step.clientCpuPercent >= 90
    ? `the load generator was at ${n(step.clientCpuPercent)}% of its core`
    : undefined
}

/** The proxy floor's own ratio, when even Node's bare server and client fall short of the target. */
function floorProxy(floor: RestRow | undefined, nginx: RestRow | undefined): string | undefined {
  const ratio = division(floor?.requestsPerSecond, nginx?.requestsPerSecond)
  return ratio !== undefined && ratio < 0.7
    ? `bare node proxy, the floor (node:http and undici with no checks, ${n(floor?.serverCpuMicrosPerRequest, 1)} µs per request), reached only ${ratioText(ratio)} of nginx in the same run`
    : undefined
}

function floorLatency(floorHalf: RampStep | null | undefined): string | undefined {
  return floorHalf && floorHalf.p99 > 15
    ? `bare ws, the floor, had p99 ${n(floorHalf.p99)} ms in its own half-saturation window: the rig (one load-generator process reading every socket on one core, beside the upstream feed) sets this latency, not the server`
    : undefined
}

function reasons(...parts: Array<string | undefined>): string | undefined {
  const kept = parts.filter((part): part is string => Boolean(part))
  return kept.length > 0 ? kept.join('; ') : undefined
}

export function checkTargets(result: BenchResult): TargetCheck[] {
  const checks: TargetCheck[] = []
  const shared = machineNote(result)
  const bare = saturationOf(result, BARE_WS)
  const socketIo = saturationOf(result, SOCKET_IO)

  for (const system of GATEWAY_SYSTEMS) {
    const gateway = saturationOf(result, system)
    if (!gateway) continue
    const common = commonHeldStep(gateway, bare)
    // Without a rate both held at p99 <= 50 ms (a busy machine), the smallest client count at full rate, where both kept up.
    const keptUp = (row: SocketRow | undefined): boolean =>
      Boolean(row?.window && row.window.deliveriesPerSecond >= 0.95 * row.window.expectedPerSecond)
    const fallbackClients = [...new Set(result.socket.map((row) => row.clients))]
      .sort((x, y) => x - y)
      .find(
        (clients) =>
          keptUp(socketRow(result, system, clients)) && keptUp(socketRow(result, BARE_WS, clients)),
      )
    const fallbackGateway =
      fallbackClients === undefined ? undefined : socketRow(result, system, fallbackClients)
    const fallbackBare =
      fallbackClients === undefined ? undefined : socketRow(result, BARE_WS, fallbackClients)
    const cpuRatio = common
      ? division(common.a.serverCpuMicrosPerDelivery, common.b.serverCpuMicrosPerDelivery)
      : division(fallbackGateway?.serverCpuMicrosPerDelivery, fallbackBare?.serverCpuMicrosPerDelivery)
    checks.push({
      issue: 5,
      target: `${system}: server CPU per delivered message ≤ 1.1× bare ws (same rate, both keeping up)`,
      measured: common
        ? `${n(common.a.serverCpuMicrosPerDelivery, 2)} vs ${n(common.b.serverCpuMicrosPerDelivery, 2)} µs at ${n(common.a.expectedPerSecond)}/s: ${ratioText(cpuRatio)}`
        : fallbackGateway
          ? `${n(fallbackGateway.serverCpuMicrosPerDelivery, 2)} vs ${n(fallbackBare?.serverCpuMicrosPerDelivery, 2)} µs at ${n(fallbackClients)} clients, full rate (no ramp step both held): ${ratioText(cpuRatio)}`
          : 'no rate at which both kept up',
      met: cpuRatio === undefined ? undefined : cpuRatio <= 1.1,
      why: cpuRatio !== undefined && cpuRatio > 1.1 ? reasons(shared) : undefined,
    })

    // Without a p99-held saturation figure on both sides, the peak delivered/s at any client count.
    const peak = (name: string): number | undefined => {
      const rates = result.socket
        .filter((row) => row.system === name && row.window)
        .map((row) => row.window!.deliveriesPerSecond)
      return rates.length > 0 ? Math.max(...rates) : undefined
    }
    const heldBoth = gateway.best && socketIo?.best
    const capacityRatio = heldBoth
      ? division(gateway.best?.deliveriesPerSecond, socketIo?.best?.deliveriesPerSecond)
      : division(peak(system), peak(SOCKET_IO))
    checks.push({
      issue: 5,
      target: `${system}: ≥ 3× the deliveries per second of Socket.IO + Redis adapter`,
      measured:
        capacityRatio === undefined
          ? 'one side has no figure'
          : heldBoth
            ? `saturation at ${n(gateway.clients)} clients: ${n(gateway.best?.deliveriesPerSecond)} vs ${n(socketIo?.best?.deliveriesPerSecond)}/s: ${ratioText(capacityRatio)}`
            : `peak delivered/s at any client count (no p99-held saturation on both): ${n(peak(system))} vs ${n(peak(SOCKET_IO))}/s: ${ratioText(capacityRatio)}`,
      met: capacityRatio === undefined ? undefined : capacityRatio >= 3,
      why:
        capacityRatio !== undefined && capacityRatio < 3
          ? reasons(clientBound(gateway.best ?? undefined), shared)
          : undefined,
    })

    const half = gateway.half
    checks.push({
      issue: 5,
      target: `${system}: tick-to-client p99 ≤ 15 ms at half of saturation with ${n(TARGET_CLIENTS)} sockets`,
      measured: half
        ? `p99 ${n(half.p99)} ms at ${n(half.deliveriesPerSecond)}/s, ${n(gateway.clients)} sockets`
        : 'no half-saturation window',
      met: half && gateway.clients >= TARGET_CLIENTS ? half.p99 <= 15 : undefined,
      why:
        half && half.p99 > 15
          ? reasons(clientBound(half), floorLatency(bare?.half), shared)
          : gateway.clients < TARGET_CLIENTS
            ? `measured with ${n(gateway.clients)} sockets, not ${n(TARGET_CLIENTS)}`
            : undefined,
    })

    checks.push({
      issue: 5,
      target: `${system}: ≤ 16 KiB RSS per connection (clients hold 3–9 subscriptions, 6 on average)`,
      measured: half?.rssPerConnectionKb === undefined ? '-' : `${n(half.rssPerConnectionKb, 1)} KiB`,
      met: half?.rssPerConnectionKb === undefined ? undefined : half.rssPerConnectionKb <= 16,
    })

    const storm = gateway.storm
    const stormDone = storm && storm.failed === 0 && storm.missing === 0
    const bus = gateway.stormBus
    checks.push({
      issue: 5,
      target: `${system}: ${n(TARGET_CLIENTS)} sockets reconnecting within 5 s all resubscribed, each with a first frame (the snapshot), within 10 s${bus ? '; Redis SUBSCRIBEs bounded by topics' : ''}`,
      measured: storm
        ? `${stormCell(storm)}, ${n(storm.sockets)} sockets${bus ? `; ${n(bus.subscribeCommands)} SUBSCRIBE calls on the whole Redis for ${n(bus.topics)} topics, ${n(bus.channels)} channels held after` : ''}`
        : 'no storm',
      met:
        storm && gateway.clients >= TARGET_CLIENTS
          ? Boolean(stormDone) &&
            storm.ms <= 10_000 &&
            storm.spreadMs <= 5000 &&
            (!bus || bus.subscribeCommands < gateway.clients / 10)
          : undefined,
      why:
        storm && !stormDone
          ? reasons(`${n(storm.failed)} sockets failed to reopen, ${n(storm.missing)} got no frame`, shared)
          : gateway.clients < TARGET_CLIENTS
            ? `measured with ${n(gateway.clients)} sockets, not ${n(TARGET_CLIENTS)}`
            : undefined,
    })
  }

  const cached = restRow(result, REST.cached)
  const bareRoute = restRow(result, REST.bareRoute)
  const cachedRatio = division(cached?.requestsPerSecond, bareRoute?.requestsPerSecond)
  checks.push({
    issue: 4,
    target: 'cached getAllSetting: req/s ≥ 0.9× a bare Fastify route returning the same bytes',
    measured:
      cachedRatio === undefined
        ? '-'
        : `${n(cached?.requestsPerSecond)} vs ${n(bareRoute?.requestsPerSecond)} req/s: ${ratioText(cachedRatio)}`,
    met: cachedRatio === undefined ? undefined : cachedRatio >= 0.9,
    why:
      cachedRatio !== undefined && cachedRatio < 0.9
        ? reasons(
            `the gateway spends ${n(cached?.serverCpuMicrosPerRequest, 1)} µs CPU per request against ${n(bareRoute?.serverCpuMicrosPerRequest, 1)} µs for the bare route (helmet headers, rate limit, request log, metrics, Chinese-text and schema hooks)`,
            shared,
          )
        : undefined,
  })

  const direct = restRow(result, REST.direct)
  const proxied = restRow(result, REST.proxied)
  const overhead =
    direct?.serialLatencyMs && proxied?.serialLatencyMs
      ? proxied.serialLatencyMs.p50 - direct.serialLatencyMs.p50
      : undefined
  checks.push({
    issue: 4,
    target:
      'proxied uncached call: p50 overhead ≤ 0.5 ms over the sandbox called directly (one request at a time)',
    measured:
      overhead === undefined
        ? '-'
        : `${n(proxied?.serialLatencyMs?.p50, 3)} − ${n(direct?.serialLatencyMs?.p50, 3)} ms = ${n(overhead, 3)} ms`,
    met: overhead === undefined ? undefined : overhead <= 0.5,
    why:
      overhead !== undefined && overhead > 0.5
        ? reasons(
            `gateway and sandbox share the one server core, so the proxied trip pays for both processes' CPU in series (${n(proxied?.serverCpuMicrosPerRequest, 1)} µs of gateway CPU per request under load)`,
            shared,
          )
        : undefined,
  })

  const nginx = restRow(result, REST.nginx)
  const nodeProxy = restRow(result, REST.nodeProxy)
  const proxyRatio = division(proxied?.requestsPerSecond, nginx?.requestsPerSecond)
  checks.push({
    issue: 4,
    target: 'proxied throughput: req/s ≥ 0.7× Debian nginx proxy_pass in front of the same sandbox',
    measured:
      proxyRatio === undefined
        ? nginx
          ? '-'
          : 'nginx row missing or skipped'
        : `${n(proxied?.requestsPerSecond)} vs ${n(nginx?.requestsPerSecond)} req/s: ${ratioText(proxyRatio)}`,
    met: proxyRatio === undefined ? undefined : proxyRatio >= 0.7,
    why:
      proxyRatio !== undefined && proxyRatio < 0.7
        ? reasons(
            `the gateway's ${n(proxied?.serverCpuMicrosPerRequest, 1)} µs of CPU per proxied request against nginx's ${n(nginx?.serverCpuMicrosPerRequest, 1)} µs takes that much core time from the sandbox they share`,
            floorProxy(nodeProxy, nginx),
            shared,
          )
        : undefined,
  })
  return checks
}

function previousAnalysis(file: string): string | undefined {
  if (!existsSync(file)) return undefined
  const text = readFileSync(file, 'utf8')
  const start = text.indexOf(ANALYSIS_START)
  const end = text.indexOf(ANALYSIS_END)
  return start >= 0 && end > start ? text.slice(start + ANALYSIS_START.length, end).trim() : undefined
}

function stepCells(step: RampStep | null | undefined): string[] {
  if (!step) return ['-', '-', '-', '-']
  return [
    `×${step.rateScale}`,
    n(step.deliveriesPerSecond),
    n(step.p99),
    n(step.serverCpuMicrosPerDelivery, 2),
  ]
}

export function renderResultsMd(
  result: BenchResult,
  jsonFile: string,
  existing: string = path.join(loadtestsDir, 'RESULTS.md'),
): string {
  const m = result.machine
  const checks = checkTargets(result)
  const counts = [...new Set(result.socket.map((row) => row.clients))]
  const bareSat = saturationOf(result, BARE_WS)
  const ioSat = saturationOf(result, SOCKET_IO)

  const cpuRatioRows = GATEWAY_SYSTEMS.flatMap((system) => [
    ...counts.map((clients) => {
      const gateway = socketRow(result, system, clients)
      const bare = socketRow(result, BARE_WS, clients)
      return [
        system,
        `${n(clients)} clients, full scenario rate`,
        n(gateway?.serverCpuMicrosPerDelivery, 2),
        n(bare?.serverCpuMicrosPerDelivery, 2),
        ratioText(division(gateway?.serverCpuMicrosPerDelivery, bare?.serverCpuMicrosPerDelivery)),
      ]
    }),
    (() => {
      const common = commonHeldStep(saturationOf(result, system), bareSat)
      return [
        system,
        common
          ? `${n(saturationOf(result, system)?.clients)} clients, ramp ×${common.scale} (${n(common.a.expectedPerSecond)}/s, both held)`
          : 'ramp: no common held step',
        n(common?.a.serverCpuMicrosPerDelivery, 2),
        n(common?.b.serverCpuMicrosPerDelivery, 2),
        ratioText(division(common?.a.serverCpuMicrosPerDelivery, common?.b.serverCpuMicrosPerDelivery)),
      ]
    })(),
  ])
  const deliveryRatioRows = GATEWAY_SYSTEMS.flatMap((system) => [
    ...counts.map((clients) => {
      const gateway = socketRow(result, system, clients)
      const io = socketRow(result, SOCKET_IO, clients)
      return [
        system,
        `${n(clients)} clients, full scenario rate`,
        n(gateway?.window?.deliveriesPerSecond),
        n(io?.window?.deliveriesPerSecond),
        ratioText(division(gateway?.window?.deliveriesPerSecond, io?.window?.deliveriesPerSecond)),
      ]
    }),
    [
      system,
      'saturation (best held rate)',
      n(saturationOf(result, system)?.best?.deliveriesPerSecond),
      n(ioSat?.best?.deliveriesPerSecond),
      ratioText(
        division(saturationOf(result, system)?.best?.deliveriesPerSecond, ioSat?.best?.deliveriesPerSecond),
      ),
    ],
  ])
  const direct = restRow(result, REST.direct)
  const proxied = restRow(result, REST.proxied)
  const nginx = restRow(result, REST.nginx)
  const nodeProxy = restRow(result, REST.nodeProxy)
  const cached = restRow(result, REST.cached)
  const bareRoute = restRow(result, REST.bareRoute)

  const analysis =
    previousAnalysis(existing) ??
    '_No analysis written yet: read the figures above; the "why" column is derived from them._'

  return `# Benchmark results

Generated by the harness (\`loadtests/bench/results-md.ts\`) from \`${jsonFile}\`. Rerun with the
command below to replace every figure; the analysis section at the end is kept.

## The run

- **Command:** \`${result.command}\` (from the repository root; \`npm run bench -w loadtests\` is the same)
- **Started:** ${result.startedAt}, run id \`${result.runId}\`
- **Machine:** ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB memory, Node ${m.node}, kernel ${m.kernel}
- **Load average (1 min):** ${result.loadAverage.start.toFixed(2)} at start, ${result.loadAverage.end.toFixed(2)} at end; cores busy just before it ${result.busyBeforePercent === undefined ? 'not recorded' : `${result.busyBeforePercent.toFixed(0)}%`}; CPU steal during the run ${result.stealPercent === undefined ? 'not recorded' : `${result.stealPercent.toFixed(1)}%`}${machineNote(result) ? ` — ${machineNote(result)}, so both the servers and the load generator lost CPU time and every figure is pessimistic` : ''}
- **Pinning:** ${result.pinning === 'unavailable' ? 'unavailable (servers and load generator shared the cores)' : `load generator (and the gateway's upstream feed) on core ${result.pinning.client}, every server on core ${result.pinning.server}`}
- **Scenario:** ${result.options.scenario.symbols} symbols; per symbol DETAIL ${result.options.scenario.rates.DETAIL}/s, TRADE ${result.options.scenario.rates.TRADE}/s, KLINE ${result.options.scenario.rates.KLINE}/s; each client subscribes DETAIL, KLINE and TRADE for 1–3 symbols, ${Math.round(result.options.scenario.btcShare * 100)}% on btcusdt. Windows of ${n(result.options.measureMs / 1000, 1)} s; ramp steps of ${n(result.options.rampMeasureMs / 1000, 1)} s; REST ${result.options.restSeconds} s per target with ${result.options.restConnections} connections, in ${result.options.restRounds} interleaved rounds, plus ${n(result.options.serialRequests)} requests one at a time.

## Targets (issues 4 and 5)

${mdTable(
  ['issue', 'target', 'measured', 'met', 'why not'],
  checks.map((check) => [
    `#${check.issue}`,
    check.target,
    check.measured,
    check.met === undefined ? 'not measured' : check.met ? '**met**' : '**not met**',
    check.why ?? '',
  ]),
)}

## Ratios against the baselines

Server CPU per delivered message, gateway vs bare \`ws\` (lower is better; the target is ≤ 1.1×):

${mdTable(['system', 'where', 'gateway µs/msg', 'bare ws µs/msg', 'ratio'], cpuRatioRows)}

Deliveries per second, gateway vs Socket.IO + Redis adapter (the target is ≥ 3×):

${mdTable(['system', 'where', 'gateway /s', 'socket.io /s', 'ratio'], deliveryRatioRows)}

REST:

${mdTable(
  ['comparison', 'gateway', 'baseline', 'ratio or difference'],
  [
    [
      'cached getAllSetting vs bare Fastify route, req/s',
      n(cached?.requestsPerSecond),
      n(bareRoute?.requestsPerSecond),
      ratioText(division(cached?.requestsPerSecond, bareRoute?.requestsPerSecond)),
    ],
    [
      'proxied uncached call vs sandbox direct, p50 one at a time (ms)',
      n(proxied?.serialLatencyMs?.p50, 3),
      n(direct?.serialLatencyMs?.p50, 3),
      proxied?.serialLatencyMs && direct?.serialLatencyMs
        ? `+${n(proxied.serialLatencyMs.p50 - direct.serialLatencyMs.p50, 3)} ms`
        : '-',
    ],
    [
      'proxied uncached call vs sandbox direct, p50 under load (ms, autocannon)',
      n(proxied?.latencyMs?.p50, 2),
      n(direct?.latencyMs?.p50, 2),
      proxied?.latencyMs && direct?.latencyMs
        ? `+${n(proxied.latencyMs.p50 - direct.latencyMs.p50, 2)} ms`
        : '-',
    ],
    [
      'proxied uncached call vs bare node proxy (the floor), req/s',
      n(proxied?.requestsPerSecond),
      n(nodeProxy?.requestsPerSecond),
      ratioText(division(proxied?.requestsPerSecond, nodeProxy?.requestsPerSecond)),
    ],
    [
      'bare node proxy (the floor) vs nginx proxy_pass, req/s',
      n(nodeProxy?.requestsPerSecond),
      n(nginx?.requestsPerSecond),
      ratioText(division(nodeProxy?.requestsPerSecond, nginx?.requestsPerSecond)),
    ],
    [
      'proxied uncached call vs nginx proxy_pass, req/s',
      n(proxied?.requestsPerSecond),
      n(nginx?.requestsPerSecond),
      ratioText(division(proxied?.requestsPerSecond, nginx?.requestsPerSecond)),
    ],
  ],
)}

## Sockets at the scenario's full rates

Latency is tick publish to client receive (ms, whole milliseconds); CPU and RSS are the server
process's. "kept up" below ~98% means the server core (or the load generator) was saturated: at 5k
and 10k clients the full scenario asks for more deliveries than one core can write, so those rows
show behaviour under overload, and the saturation ramp below is where capacity and latency are read.

${mdTable(
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
    'server cpu',
    'client cpu',
    'KB/conn (loaded)',
    'connect/s',
  ],
  result.socket.map((row) => [row.system, ...socketCells(row)]),
)}

## Saturation, half-saturation latency and the reconnect storm

At the largest client count the tick rates are multiplied step by step (×1 = the full scenario)
until p99 passes 50 ms or fewer than 95% of frames arrive. "best" is the highest delivery rate that
held; "half" is a window at half that rate, where the latency and memory targets are judged; the
storm drops every socket at half saturation and reopens each at a random moment within the spread.

${mdTable(
  [
    'system',
    'clients',
    'best step',
    'best /s',
    'best p99',
    'best µs/msg',
    'half /s',
    'half p50',
    'half p99',
    'half p99.9',
    'KB/conn',
    'client cpu',
    'storm',
    'Redis SUBSCRIBEs in storm',
  ],
  result.saturation.map((report) => [
    report.system,
    n(report.clients),
    ...stepCells(report.best),
    n(report.half?.deliveriesPerSecond),
    n(report.half?.p50),
    n(report.half?.p99),
    n(report.half?.p999),
    n(report.half?.rssPerConnectionKb, 1),
    report.half ? `${n(report.half.clientCpuPercent)}%` : '-',
    report.error ? `FAILED: ${report.error}` : stormCell(report.storm),
    report.stormBus ? `${n(report.stormBus.subscribeCommands)} (${n(report.stormBus.topics)} topics)` : '-',
  ]),
)}

Every ramp step (rate multiplier: delivered/s, p99 ms, server µs/msg, client CPU):

${result.saturation
  .map(
    (report) =>
      `- **${report.system}**: ${report.steps
        .map(
          (step) =>
            `×${step.rateScale}: ${n(step.deliveriesPerSecond)}/s of ${n(step.expectedPerSecond)}, p99 ${n(step.p99)}, ${n(step.serverCpuMicrosPerDelivery, 2)} µs, client ${n(step.clientCpuPercent)}%`,
        )
        .join('; ')}`,
  )
  .join('\n')}

## REST

autocannon, ${result.options.restConnections} connections. Each target is started, warmed up for ${n(result.options.warmupMs / 1000, 1)} s, measured for
${n(result.options.restSeconds / result.options.restRounds, 1)} s and stopped, in turn, over ${result.options.restRounds} rounds, so a slow spell of the machine
falls on every target alike; req/s and CPU are over all rounds together, "rounds" shows the slowest
and fastest round, and latency percentiles are the median round's. "one at a time" is
${n(result.options.serialRequests)} sequential requests over one keep-alive connection (sub-millisecond resolution), in the first round.
Every server process is on the server core: a proxied row's sandbox shares that core with its proxy.

${mdTable(
  [
    'target',
    'what',
    'req/s',
    'rounds req/s',
    'p50',
    'p90',
    'p99',
    'p99.9',
    'one at a time p50',
    'p99',
    'server cpu µs/req',
    'errors',
  ],
  result.rest.map((row) => [row.target, row.note ?? '', ...restCells(row)]),
)}

## Analysis

${ANALYSIS_START}
${analysis}
${ANALYSIS_END}
`
}
