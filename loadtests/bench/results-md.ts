/**
 * Renders loadtests/RESULTS.md from one run's JSON: the machine, the command, every figure, the
 * targets beside what was measured, the ratios, and an analysis whose every claim is worked out
 * from held windows only (p99 ≤ 50 ms over the fan-out floor and ≥ 99% delivered, both systems at the
 * same offered rate).
 * The whole file is generated from that run, but for the sections of separate runs an earlier file
 * holds (`keepSeparateRuns`): a full run replaces what it measured, not figures it never took.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import * as prettier from 'prettier'
import { loadtestsDir } from './child-process'
import { commonHeldWindows, failedAbove, HELD_DELIVERED_SHARE, HELD_P99_MS } from './capacity'
import { GENERATOR_MAX_PERCENT, TARGET_MIN_PERCENT } from './generator-bound'
import { OFFERED_SHARE } from './hostile-bodies'
import {
  CAPACITY_COLUMNS,
  capacityBound,
  capacityText,
  floorMark,
  formatNumber,
  HOSTILE_COLUMNS,
  hostileStatuses,
  loopGapsText,
  machineNote,
  mdTable,
  medianRange,
  PROXIED_CONTENTION_COLUMNS,
  REST_COLUMNS,
  restFailed,
  reportFailed,
  roundRows,
  slowAnswersText,
  SOCKET_COLUMNS,
  socketFailed,
  stormCell,
  textColumns,
  UPLOADS_COLUMNS,
} from './report-format'
import {
  BARE_WS,
  BARE_WS_CORKED,
  BARE_WS_PREFRAMED,
  GATEWAY,
  GATEWAY_CLUSTER,
  GATEWAY_LISTS,
  GATEWAY_LISTS_100,
  GATEWAY_NO_DEPTH,
  GATEWAY_REDIS,
  SOCKET_IO_MEMORY,
  SOCKET_IO_MEMORY_RELIABLE,
  SOCKET_IO_REDIS,
  SOCKET_IO_REDIS_RELIABLE,
} from './socket-systems'
import type {
  BenchResult,
  CapacityReport,
  FedIdleReading,
  FedIdleReport,
  HostileReport,
  ProxiedContentionReport,
  RestRow,
  SignedInUploadsReport,
  SocketWindow,
} from './types'
import { PROXIED_FASTIFY_FLOOR, PROXIED_FLOOR, PROXIED_GATEWAY } from './rest-targets'
import {
  listsCheck,
  proxiedContentionChecks,
  restNoRatio,
  restRatio,
  restThroughputCheck,
  roundsCpuCheck,
  roundsPair,
  spreadText,
  type TargetCheck,
} from './same-round'

/** The signed-in uploads row's targets: /healthz p99 over its quiet value, RSS after over before. */
const UPLOADS_HEALTHZ_RATIO = 3
const UPLOADS_RSS_SHARE = 1.1

export const REST = {
  proxied: PROXIED_GATEWAY,
  nginx: 'nginx proxy_pass',
  nodeProxy: PROXIED_FLOOR,
  httpProxy: 'fastify http-proxy',
  coinList: 'gateway cached getCoinList',
  coinListBr: 'gateway cached getCoinList br',
  cached: 'gateway cached getAllSetting',
  bareRoute: 'bare fastify route',
  nodeRoute: 'bare node:http route',
} as const

const TARGET_CLIENTS = 10_000
/** Against the pre-framed floor: held capacity at least this share of its, CPU per delivery at most this many times */
const PREFRAMED_CAPACITY_SHARE = 0.95
const PREFRAMED_CPU_SHARE = 1.02
/** The Redis bus's held capacity at least this share of the memory bus's */
const REDIS_CAPACITY_SHARE = 0.9
/** issue 40: an idle gateway's RSS, at its start and fed */
const IDLE_RSS_BOUND_MIB = 80
/** issue 40: an idle gateway's heap, what it keeps alive */
const IDLE_HEAP_BOUND_MIB = 15
const n = formatNumber
const ratioText = (value: number | undefined): string => (value === undefined ? '-' : `${value.toFixed(2)}×`)
const division = (top: number | undefined, bottom: number | undefined): number | undefined =>
  top === undefined || bottom === undefined || bottom === 0 ? undefined : top / bottom

function capacityOf(result: BenchResult, system: string): CapacityReport | undefined {
  return result.capacity.find((report) => report.system === system)
}
function restRow(result: BenchResult, target: string): RestRow | undefined {
  return result.rest.find((row) => row.target === target && row.ok)
}

/** Every window of a system at the largest client count: ramp steps, half capacity, the reference's rates. */
function windowsOf(report: CapacityReport | undefined): SocketWindow[] {
  if (!report) return []
  return [...report.steps, ...(report.half ? [report.half] : []), ...(report.atReferenceRates ?? [])]
}

/** One window in the list of a system's windows. */
function stepText(step: SocketWindow): string {
  const stall = step.clientLoopDelayMs ? ` (stall max ${n(step.clientLoopDelayMs.max)} ms)` : ''
  return `×${step.rateScale}: ${n(step.offeredPerSecond)}/s, ${n(step.deliveredShare * 100, 1)}%, p99 ${n(step.latencyMs.p99)}${floorMark(step)}, ${n(step.serverCpuMicrosPerDelivery, 2)} µs, client ${n(step.clientCpuPercent)}%${stall}${step.held ? '' : ` ✗ (${step.verdict})`}`
}

/** The highest offered rate both systems held at the same rate scale, or undefined. */
export function highestCommonHeld(
  a: CapacityReport | undefined,
  b: CapacityReport | undefined,
): { scale: number; a: SocketWindow; b: SocketWindow } | undefined {
  return commonHeldWindows(windowsOf(a), windowsOf(b)).at(-1)
}

/** The capacity ratio of two systems, only when both held a rate. */
export function capacityRatio(
  a: CapacityReport | undefined,
  b: CapacityReport | undefined,
): number | undefined {
  if (!a?.capacity || !b?.capacity || a.generatorBound || b.generatorBound) return undefined
  return division(a.capacity.offeredPerSecond, b.capacity.offeredPerSecond)
}

/** Why a system's capacity enters no ratio: none held, or the generator may have set it. */
function noHeld(report: CapacityReport | undefined, name: string): string | undefined {
  if (!report) return `${name} was not run`
  if (report.generatorBound)
    return `${name}'s capacity is ${capacityBound(report)} (${report.generatorBound})`
  return report.capacity ? undefined : `${name}: ${capacityText(report)}`
}

/**
 * What set a capacity flagged generator-bound, from the highest step. With the generator over its
 * bound: its CPU per frame it read beside the target's per frame it sent (when the two are alike, one
 * core each cannot take the target to its limit before the generator reaches its own). With neither
 * core full: the step failed on latency or delivery, not for want of CPU on either side.
 */
export function perFrameCosts(report: CapacityReport | undefined): string | undefined {
  // the step above the capacity that did not hold, as the generator rule judged it; else the last one
  const top = (report?.capacity && failedAbove(report.steps, report.capacity)) ?? report?.steps.at(-1)
  if (!report?.generatorBound || !top || !(top.deliveredPerSecond > 0)) return undefined
  if (top.clientCpuPercent <= GENERATOR_MAX_PERCENT) {
    const p99 = top.latencyMs ? ` (${againstFloor(top)})` : ''
    return `at ×${top.rateScale} neither core was full (generator ${n(top.clientCpuPercent)}%, ${report.system} ${n(top.serverCpuPercent ?? 0)}%): the step failed its latency or delivery bound${p99}, so this capacity is not a CPU limit of either side`
  }
  const perFrame = (percent: number): number => ((percent / 100) * 1e6) / top.deliveredPerSecond
  return `at ×${top.rateScale} the generator spent ${n(perFrame(top.clientCpuPercent), 1)} µs of its core per frame it read and ${report.system} ${n(perFrame(top.serverCpuPercent ?? 0), 1)} µs of its own per frame it sent: with one core each, the generator's core fills first on this machine`
}

/**
 * A window's p99 beside its fan-out floor: the time one frame of the hottest topic takes to reach
 * its last subscriber, written one after another at the window's CPU per delivery. A p99 near it is
 * set by the size of that topic, not by the rate (just the p99 in runs from before it was recorded).
 */
export function againstFloor(window: SocketWindow): string {
  const p99 = `p99 ${n(window.latencyMs.p99)} ms`
  const floor = window.fanOutFloor
  if (!floor) return p99
  return `${p99} against a fan-out floor of ${n(floor.subscribers)} subscribers × ${n(floor.microsPerDelivery, 1)} µs = ${n(floor.ms)} ms: one ${floor.topic} frame reaches its last subscriber that long after its first, at any rate`
}

/** The ramp step above a capacity, which did not hold: what decided the capacity. */
export function stepAbove(report: CapacityReport | undefined): string | undefined {
  const above = report?.capacity && failedAbove(report.steps, report.capacity)
  if (!above) return undefined
  return `${report.system}'s step above, ${n(above.offeredPerSecond)}/s at ×${above.rateScale}, did not hold (${above.verdict}) with its core at ${n(above.serverCpuPercent ?? 0)}%`
}

function clientBound(window: SocketWindow | undefined): string | undefined {
  return window && window.clientCpuPercent >= 90
    ? `the load generator was at ${n(window.clientCpuPercent)}% of its core there`
    : undefined
}

function reasons(...parts: Array<string | undefined>): string | undefined {
  const kept = parts.filter((part): part is string => Boolean(part))
  return kept.length > 0 ? kept.join('; ') : undefined
}

/** Of several ways to run one baseline, the one that held the highest rate (the first, when none held). */
export function bestCapacity(result: BenchResult, names: string[]): CapacityReport | undefined {
  const reports = names
    .map((name) => capacityOf(result, name))
    .filter((report): report is CapacityReport => Boolean(report))
  const held = reports.filter((report) => report.capacity)
  return held.length > 0
    ? held.reduce((best, report) =>
        report.capacity!.offeredPerSecond > best.capacity!.offeredPerSecond ? report : best,
      )
    : reports[0]
}

/**
 * Gateway capacity against the best way a baseline was run (Socket.IO: volatile or reliable emits). A
 * missed bound against another server says what the pre-framed floor held of that server in the same
 * run: a bound the floor itself misses sits above what Node and ws allow on this host.
 */
function capacityTarget(result: BenchResult, label: string, baselines: string[], at: number): TargetCheck {
  const gateway = capacityOf(result, GATEWAY)
  const other = bestCapacity(result, baselines)
  const ratio = capacityRatio(gateway, other)
  const floor = baselines.includes(BARE_WS_PREFRAMED) ? undefined : capacityOf(result, BARE_WS_PREFRAMED)
  const floorRatio = capacityRatio(floor, other)
  const beside = [BARE_WS_CORKED, BARE_WS, ...baselines]
    .filter((name) => name !== other?.system)
    .map((name) => capacityOf(result, name))
    .filter((report): report is CapacityReport => Boolean(report))
    .map((report) => `${report.system} ${capacityText(report)}`)
  return {
    area: 'sockets',
    target: `held-rate capacity: ${GATEWAY} ≥ ${at}× ${label}`,
    measured:
      ratio === undefined
        ? 'no ratio: ' + (reasons(noHeld(gateway, GATEWAY), noHeld(other, label)) ?? 'no figures')
        : `${capacityText(gateway!)} vs ${other!.system} ${capacityText(other!)}: ${ratioText(ratio)}`,
    met: ratio === undefined ? undefined : ratio >= at,
    why:
      ratio !== undefined && ratio < at
        ? reasons(
            floorRatio === undefined
              ? undefined
              : `${BARE_WS_PREFRAMED}, the floor, held ${ratioText(floorRatio)} of it${floorRatio < at ? ': below the bound before any gateway code runs' : ''}`,
            `measured beside it: ${beside.join(', ') || '-'}`,
            clientBound(gateway?.capacity ?? undefined),
            machineNote(result),
          )
        : ratio === undefined
          ? reasons(perFrameCosts(gateway), perFrameCosts(other))
          : gateway?.atTopOfRamp || other?.atTopOfRamp
            ? 'a capacity marked ≥ held at the top of the ramp: its real capacity may be higher'
            : undefined,
  }
}

function cpuTarget(
  result: BenchResult,
  system: string,
  floor: string,
  at: number,
  label: string,
): TargetCheck {
  const common = highestCommonHeld(capacityOf(result, system), capacityOf(result, floor))
  const ratio = common
    ? division(common.a.serverCpuMicrosPerDelivery, common.b.serverCpuMicrosPerDelivery)
    : undefined
  return {
    area: label,
    target: `CPU per delivery: ${system} ≤ ${at}× ${floor} at the same held rate`,
    measured: common
      ? `${n(common.a.serverCpuMicrosPerDelivery, 2)} vs ${n(common.b.serverCpuMicrosPerDelivery, 2)} µs at ×${common.scale} (${n(common.b.offeredPerSecond)}/s offered to ${floor}, both held): ${ratioText(ratio)}`
      : 'no rate both held: no ratio',
    met: ratio === undefined ? undefined : ratio <= at,
    why:
      ratio !== undefined && ratio > at
        ? reasons(
            `${floor}, the floor, ${n(common!.b.serverCpuMicrosPerDelivery, 2)} µs per delivery at the same rate`,
            machineNote(result),
          )
        : ratio === undefined
          ? reasons(noHeld(capacityOf(result, system), system), noHeld(capacityOf(result, floor), floor))
          : undefined,
  }
}

/** The socket targets judged from the ramps (capacities) and the rounds (same-round ratios). */
function socketChecks(result: BenchResult): TargetCheck[] {
  const checks: TargetCheck[] = [
    capacityTarget(result, BARE_WS_CORKED, [BARE_WS_CORKED], 1),
    capacityTarget(result, `${BARE_WS_PREFRAMED} (the floor)`, [BARE_WS_PREFRAMED], PREFRAMED_CAPACITY_SHARE),
    capacityTarget(
      result,
      'Socket.IO in-memory adapter (volatile or reliable emits, whichever held more)',
      [SOCKET_IO_MEMORY, SOCKET_IO_MEMORY_RELIABLE],
      2,
    ),
    capacityTarget(
      result,
      'Socket.IO Redis adapter (volatile or reliable emits, whichever held more)',
      [SOCKET_IO_REDIS, SOCKET_IO_REDIS_RELIABLE],
      2.5,
    ),
    roundsCpuCheck(result.rounds, 'sockets', GATEWAY, BARE_WS_CORKED, 1.05),
    roundsCpuCheck(result.rounds, 'sockets', GATEWAY, BARE_WS_PREFRAMED, PREFRAMED_CPU_SHARE),
  ]
  // p99 at the rounds' lower rate (half of the gateway's highest usable held step), same round.
  const p99 = roundsPair(result.rounds, GATEWAY, BARE_WS_CORKED, (window) => window.latencyMs.p99, 0, [0])
  checks.push({
    area: 'sockets',
    target: `p99 at half of ${GATEWAY}'s highest usable held rate ≤ 1.1× ${BARE_WS_CORKED}, same round`,
    measured: p99.ratio
      ? `${p99.a} vs ${p99.b} ms at ×${p99.rate}: ${spreadText(p99.ratio)}`
      : `no ratio: ${p99.why}`,
    met: p99.ratio ? p99.ratio.median <= 1.1 : undefined,
    why:
      p99.ratio && p99.ratio.median > 1.1
        ? `latency is in whole milliseconds, so small p99s differ by steps of 1 ms; ${machineNote(result) ?? ''}`
        : undefined,
  })
  return checks
}

/** The Redis path against the memory path: capacity from the ramps, CPU per delivery from the rounds. */
function busChecks(result: BenchResult): TargetCheck[] {
  const memory = capacityOf(result, GATEWAY)
  const redis = capacityOf(result, GATEWAY_REDIS)
  const ratio = capacityRatio(redis, memory)
  return [
    {
      area: 'bus',
      target: `held-rate capacity: ${GATEWAY_REDIS} ≥ ${REDIS_CAPACITY_SHARE}× ${GATEWAY}`,
      measured:
        ratio === undefined
          ? `no ratio: ${reasons(noHeld(redis, GATEWAY_REDIS), noHeld(memory, GATEWAY)) ?? 'no figures'}`
          : `${capacityText(redis!)} vs ${capacityText(memory!)}: ${ratioText(ratio)}`,
      met: ratio === undefined ? undefined : ratio >= REDIS_CAPACITY_SHARE,
      why:
        ratio !== undefined && ratio < REDIS_CAPACITY_SHARE
          ? reasons(stepAbove(redis), machineNote(result))
          : undefined,
    },
    roundsCpuCheck(result.rounds, 'bus', GATEWAY_REDIS, GATEWAY, 1.1),
    roundsCpuCheck(result.rounds, 'bus', GATEWAY_CLUSTER, GATEWAY, undefined),
  ]
}

function memoryAndStormChecks(result: BenchResult): TargetCheck[] {
  const gateway = capacityOf(result, GATEWAY)
  const half = gateway?.half
  const rss = half?.rssPerConnectionKb
  const heap = half?.heapPerConnectionKb
  // the floor is the leanest server of the gateway's own write path; plain ws.send holds more per socket
  const floorRss = capacityOf(result, BARE_WS_PREFRAMED)?.half?.rssPerConnectionKb
  const plainRss = capacityOf(result, BARE_WS)?.half?.rssPerConnectionKb
  return [
    {
      area: 'memory',
      target: `${GATEWAY}: RSS per socket ≤ 6 KiB at ${n(TARGET_CLIENTS)} sockets with 6 subscriptions`,
      measured:
        rss === undefined
          ? '-'
          : `${n(rss, 1)} KiB at half capacity, ${n(gateway?.clients)} sockets (heap ${heap === undefined ? '-' : `${n(heap, 1)} KiB`}); ${BARE_WS_PREFRAMED}, the floor, ${n(floorRss, 1)} KiB; ${BARE_WS} ${n(plainRss, 1)} KiB`,
      met: rss === undefined || (gateway?.clients ?? 0) < TARGET_CLIENTS ? undefined : rss <= 6,
      why:
        rss !== undefined && (gateway?.clients ?? 0) < TARGET_CLIENTS
          ? `measured with ${n(gateway?.clients)} sockets, not ${n(TARGET_CLIENTS)}`
          : rss !== undefined && rss > 6 && floorRss !== undefined
            ? `${BARE_WS_PREFRAMED}, the floor, ${n(floorRss, 1)} KiB per socket at its own half capacity${floorRss > 6 ? ': above the bound before any gateway code runs' : ''}`
            : undefined,
    },
    idleRssCheck(result),
    fedIdleCheck(result, FED_IDLE_RSS),
    fedIdleCheck(result, FED_IDLE_HEAP),
    stormCheck(result, GATEWAY),
    stormCheck(result, GATEWAY_REDIS),
  ]
}

/**
 * The idle checks' rule: the starts within `bound`, and whether most of them are (undefined without a
 * start). A start reads one of two levels about 10 MiB apart (loadtests/LIFECYCLE.md), and the lower
 * middle of an even count would judge on the lower one.
 */
function mostStartsWithin(readings: number[], bound: number): { within: number; met: boolean | undefined } {
  const within = readings.filter((value) => value <= bound).length
  return { within, met: readings.length ? within * 2 > readings.length : undefined }
}

/**
 * RSS before any socket, read on every fresh start of a system (the ramp's and each round's), beside the
 * pre-framed bare ws server's: the same Node and ws with nothing of the gateway. Met when most starts are
 * within the bound.
 */
function idleRssCheck(result: BenchResult): TargetCheck {
  const idle = (system: string): number[] => [
    ...result.socket.flatMap((row) =>
      row.system === system && row.rssBaselineMb !== undefined ? [row.rssBaselineMb] : [],
    ),
    ...(result.rounds?.systems.find((entry) => entry.system === system)?.idleRssMb ?? []),
  ]
  const gateway = idle(GATEWAY)
  const floor = idle(BARE_WS_PREFRAMED)
  const { within, met } = mostStartsWithin(gateway, IDLE_RSS_BOUND_MIB)
  const starts = (readings: number[]): string =>
    `${medianRange(readings, 1)} MiB over ${readings.length} ${readings.length === 1 ? 'start' : 'starts'}`
  return {
    area: 'memory',
    target: `${GATEWAY}: RSS at start ≤ ${IDLE_RSS_BOUND_MIB} MiB in most of its starts, each with its feed open, no tick yet and no sockets`,
    measured: gateway.length
      ? `${starts(gateway)}, ${within} within the bound; ${BARE_WS_PREFRAMED}, the floor, ${floor.length ? starts(floor) : 'not measured'}`
      : '-',
    met,
    why:
      met === false
        ? floor.length
          ? `${BARE_WS_PREFRAMED}, the floor, idles at ${medianRange(floor, 1)} MiB: Node and ws with nothing of the gateway`
          : `${BARE_WS_PREFRAMED}, the floor, was not measured`
        : undefined,
  }
}

/** One figure of an idle server in the fed idle phase: its RSS or the heap it keeps alive, MiB. */
interface FedIdleFigure {
  name: string
  bound: number
  digits: number
  of(reading: FedIdleReading): number
}

const FED_IDLE_RSS: FedIdleFigure = {
  name: 'idle RSS',
  bound: IDLE_RSS_BOUND_MIB,
  digits: 1,
  of: (reading) => reading.rssMb,
}
const FED_IDLE_HEAP: FedIdleFigure = {
  name: 'idle live heap',
  bound: IDLE_HEAP_BOUND_MIB,
  digits: 2,
  of: (reading) => reading.liveHeapMb,
}

/**
 * An idle gateway as it runs: no socket, its feed ticking at the scenario's rates for the phase's span
 * (`fed-idle.ts`), beside the pre-framed bare ws server fed alike. Met when most starts are within the bound.
 */
function fedIdleCheck(result: BenchResult, figure: FedIdleFigure): TargetCheck {
  const report = result.fedIdle
  const values = (system: string): number[] =>
    report?.systems.find((entry) => entry.system === system)?.readings.map(figure.of) ?? []
  const gateway = values(GATEWAY)
  const floor = values(BARE_WS_PREFRAMED)
  const { within, met } = mostStartsWithin(gateway, figure.bound)
  const readings = (list: number[]): string =>
    list.length ? `${list.map((value) => n(value, figure.digits)).join(', ')} MiB` : 'not measured'
  return {
    area: 'memory',
    target: `${GATEWAY}: ${figure.name} ≤ ${figure.bound} MiB in most of its starts, no sockets, its feed ticking at the scenario's rates for ${report ? n(report.seconds) : '-'} s`,
    measured: gateway.length
      ? `${readings(gateway)}, ${within} within the bound; ${GATEWAY_REDIS} ${readings(values(GATEWAY_REDIS))}; ${BARE_WS_PREFRAMED}, the floor, ${readings(floor)}`
      : '-',
    met,
    why:
      met === false
        ? floor.length
          ? `${BARE_WS_PREFRAMED}, the floor, fed the same frames, holds ${readings(floor)}${floor.every((value) => value > figure.bound) ? ': above the bound before any gateway code runs' : ''}`
          : `${BARE_WS_PREFRAMED}, the floor, was not measured`
        : undefined,
  }
}

/** Every socket dropped at once: back-off with full jitter against the fixed interval, one system. */
function stormCheck(result: BenchResult, system: string): TargetCheck {
  const report = capacityOf(result, system)
  const storm = report?.storm
  const fixed = report?.stormFixed
  const done = (row: typeof storm): boolean => Boolean(row && row.failed === 0 && row.missing === 0)
  return {
    area: 'storm',
    target: `${system}: ${n(TARGET_CLIENTS)} sockets dropped at once all reconnect and resubscribe with back-off and full jitter, each with its snapshot; beside the fixed interval`,
    measured: storm ? `back-off: ${stormCell(storm)}; fixed: ${stormCell(fixed)}` : 'no storm',
    met: storm && (report?.clients ?? 0) >= TARGET_CLIENTS ? done(storm) : undefined,
    why:
      storm && !done(storm)
        ? `${n(storm.failed)} sockets failed to reopen, ${n(storm.missing)} got no frame`
        : report && report.clients < TARGET_CLIENTS
          ? `measured with ${n(report.clients)} sockets, not ${n(TARGET_CLIENTS)}`
          : undefined,
  }
}

function hostileCheck(result: BenchResult): TargetCheck {
  const hostile = result.hostile
  return {
    area: 'hostile',
    target: `while one client sends, on a schedule at ${OFFERED_SHARE * 100}% of the rate answered back to back, the worst body each call accepts and 5 MiB uploads with and without a session: /healthz p99 ≤ 50 ms and each hostile JSON request answered ≤ 50 ms`,
    measured: hostile?.ok
      ? `/healthz p99 ${n(hostile.healthzMs.p99, 1)} ms (max ${n(hostile.healthzMs.max, 1)}); hostile p99 ${n(hostile.hostileMs.p99, 1)} ms, slowest ${n(hostile.hostileMs.max, 1)} ms`
      : hostile
        ? `FAILED: ${hostile.error ?? 'no figures'}`
        : 'not run',
    met: hostile?.ok ? hostileVerdict(hostile) : undefined,
    why:
      hostile?.ok && !hostileWithin(hostile)
        ? reasons(
            `the gateway's core was ${n(hostile.serverCpuPercent)}% busy${hostile.generatorCpuPercent === undefined ? '' : `, the load generator's ${n(hostile.generatorCpuPercent)}%`}${hostileStalls(hostile)}; answers: ${hostileStatuses(hostile)}`,
            machineNote(result),
          )
        : undefined,
  }
}

/** The REST phase's bound on the proxied call's one-at-a-time overhead over the sandbox, in ms. */
const SERIAL_OVERHEAD_BOUND_MS = 0.3

function restChecks(result: BenchResult): TargetCheck[] {
  const row = (name: string): { name: string; row: RestRow | undefined } => ({
    name,
    row: restRow(result, name),
  })
  const coinList = restRow(result, REST.coinList)
  const coinListBr = restRow(result, REST.coinListBr)
  const proxied = restRow(result, REST.proxied)
  const nodeProxy = restRow(result, REST.nodeProxy)
  const nginx = restRow(result, REST.nginx)
  const httpProxyRatio = restRatio(restRow(result, REST.httpProxy), proxied)
  const nodeRouteRatio = restRatio(restRow(result, REST.cached), restRow(result, REST.nodeRoute))
  const nginxRatio = restRatio(proxied, nginx)
  // each measured in pairs with the sandbox it forwards to, called directly (serial-latency.ts), in every round
  const roundsText = (rounds: readonly number[] | undefined) =>
    rounds && rounds.length > 1 ? `, rounds ${rounds.map((ms) => n(ms, 3)).join(', ')}` : ''
  const overhead = proxied?.serialLatencyMs?.overheadP50
  const floorOverhead = nodeProxy?.serialLatencyMs?.overheadP50
  return [
    {
      area: 'REST',
      target: 'cached getCoinList with accept-encoding: br: req/s and bytes per answer',
      measured: coinListBr
        ? `${n(coinListBr.requestsPerSecond)} req/s, ${n(coinListBr.answer?.bytes)} bytes (${coinListBr.answer?.encoding ?? '-'}); without br ${n(coinList?.requestsPerSecond)} req/s, ${n(coinList?.answer?.bytes)} bytes`
        : 'not measured',
      met: coinListBr?.answer ? coinListBr.answer.encoding === 'br' : undefined,
    },
    {
      area: 'REST',
      target: "@fastify/http-proxy beside the gateway's proxy path on the same call",
      measured: httpProxyRatio
        ? `${spreadText(httpProxyRatio)} of the gateway's req/s`
        : `no ratio: ${restNoRatio(restRow(result, REST.httpProxy), proxied, [REST.httpProxy, REST.proxied])}`,
      met: undefined,
      why: 'a comparison, not a target: the plugin alone against the whole gateway',
    },
    restThroughputCheck(
      row(REST.cached),
      row(REST.bareRoute),
      0.95,
      'cached getAllSetting',
      nodeRouteRatio ? `; against ${REST.nodeRoute} ${spreadText(nodeRouteRatio)}` : '',
    ),
    restThroughputCheck(
      row(REST.proxied),
      row(REST.nodeProxy),
      0.95,
      'proxied uncached call',
      nginxRatio ? `; against nginx ${spreadText(nginxRatio)}` : '',
    ),
    {
      area: 'REST',
      target: `proxied uncached call: p50 overhead ≤ ${SERIAL_OVERHEAD_BOUND_MS} ms over the sandbox called directly (one request at a time, each paired with a direct one)`,
      measured:
        overhead === undefined
          ? '-'
          : `${n(overhead, 3)} ms${roundsText(proxied?.serialLatencyMs?.roundsOverheadP50)} (p50 ${n(proxied?.serialLatencyMs?.p50, 3)} ms, the sandbox's ${n(proxied?.serialLatencyMs?.direct?.p50, 3)} ms in the same pairs); the bare node proxy adds ${n(floorOverhead, 3)} ms${roundsText(nodeProxy?.serialLatencyMs?.roundsOverheadP50)}`,
      met: overhead === undefined ? undefined : overhead <= SERIAL_OVERHEAD_BOUND_MS,
      why:
        overhead === undefined || overhead <= SERIAL_OVERHEAD_BOUND_MS
          ? undefined
          : floorOverhead === undefined
            ? 'the floor, the bare node proxy, was not measured one at a time'
            : `the floor, the bare node proxy, adds ${n(floorOverhead, 3)} ms in the same kind of pairs`,
    },
  ]
}

export function checkTargets(result: BenchResult): TargetCheck[] {
  return [
    ...socketChecks(result),
    ...busChecks(result),
    ...memoryAndStormChecks(result),
    listsCheck(result.rounds, GATEWAY_LISTS_100, GATEWAY, 100),
    listsCheck(result.rounds, GATEWAY_LISTS, GATEWAY, 1000),
    cpuTarget(result, GATEWAY, GATEWAY_NO_DEPTH, 1.1, 'DEPTH'),
    hostileCheck(result),
    ...restChecks(result),
    ...(result.proxied ? proxiedContentionChecks(result.proxied) : []),
  ]
}

/** Same-rate comparisons of a system against a floor: every window both held at one rate scale. */
function comparisonRows(result: BenchResult, system: string, floor: string): string[][] {
  const pairs = commonHeldWindows(windowsOf(capacityOf(result, system)), windowsOf(capacityOf(result, floor)))
  if (pairs.length === 0) return [[system, floor, 'no rate both held', '-', '-', '-', '-', '-', '-']]
  return pairs.map(({ scale, a, b }) => [
    system,
    floor,
    `×${scale}`,
    n(b.offeredPerSecond),
    `${n(a.serverCpuMicrosPerDelivery, 2)} / ${n(b.serverCpuMicrosPerDelivery, 2)}`,
    ratioText(division(a.serverCpuMicrosPerDelivery, b.serverCpuMicrosPerDelivery)),
    `${n(a.latencyMs.p99)} / ${n(b.latencyMs.p99)}`,
    `${n(a.latencyMs.p50)} / ${n(b.latencyMs.p50)}`,
    `${n(a.clientCpuPercent)}% / ${n(b.clientCpuPercent)}%`,
  ])
}

const verdict = (check: TargetCheck, bold = ''): string =>
  check.met === undefined ? 'not judged' : `${bold}${check.met ? 'met' : 'missed'}${bold}`

/** Claims in words, each only as far as held windows carry it. */
export function analysis(result: BenchResult, checks: TargetCheck[]): string[] {
  const lines: string[] = []
  const gateway = capacityOf(result, GATEWAY)
  const corked = capacityOf(result, BARE_WS_CORKED)
  const plain = capacityOf(result, BARE_WS)
  const note = machineNote(result)
  if (note)
    lines.push(
      `**The machine was not quiet** (${note}): every figure below is pessimistic, and ratios may carry that noise.`,
    )

  const capacities = result.capacity.map((report) => `${report.system} ${capacityText(report)}`)
  lines.push(
    `**Capacity** (${n(gateway?.clients)} sockets; the highest offered rate held with p99 ≤ ${HELD_P99_MS} ms over the fan-out floor and ≥ ${HELD_DELIVERED_SHARE * 100}% delivered): ${capacities.join('; ')}.`,
  )
  for (const baseline of [
    BARE_WS_CORKED,
    BARE_WS,
    SOCKET_IO_MEMORY,
    SOCKET_IO_MEMORY_RELIABLE,
    SOCKET_IO_REDIS,
    SOCKET_IO_REDIS_RELIABLE,
    GATEWAY_REDIS,
  ]) {
    const ratio = capacityRatio(gateway, capacityOf(result, baseline))
    lines.push(
      ratio === undefined
        ? `- Against ${baseline}: no capacity ratio is claimed, because ${reasons(noHeld(gateway, GATEWAY), noHeld(capacityOf(result, baseline), baseline)) ?? 'a figure is missing'}.`
        : `- ${GATEWAY} held ${ratioText(ratio)} the offered rate ${baseline} held.`,
    )
  }
  const cpu = roundsPair(result.rounds, GATEWAY, BARE_WS_PREFRAMED, (w) => w.serverCpuMicrosPerDelivery)
  lines.push(
    cpu.ratio
      ? `**CPU per delivery.** Against the pre-framed floor (one frame built per publish, its bytes written to every socket, corked), at ×${cpu.rate}: ${GATEWAY} ${cpu.a} µs, ${BARE_WS_PREFRAMED} ${cpu.b} µs per delivery (medians and range over the rounds): ${spreadText(cpu.ratio)}.`
      : `**CPU per delivery.** No same-round ratio of ${GATEWAY} against ${BARE_WS_PREFRAMED}: ${cpu.why}.`,
  )
  const corkGain = highestCommonHeld(plain, corked)
  if (corkGain)
    lines.push(
      `- Corking is worth ${ratioText(division(corkGain.a.serverCpuMicrosPerDelivery, corkGain.b.serverCpuMicrosPerDelivery))} at ×${corkGain.scale}: ${BARE_WS} ${n(corkGain.a.serverCpuMicrosPerDelivery, 2)} µs against ${BARE_WS_CORKED} ${n(corkGain.b.serverCpuMicrosPerDelivery, 2)} µs per delivery.`,
    )
  for (const check of checks.filter((c) => c.area !== 'sockets' || !c.target.startsWith('held-rate'))) {
    lines.push(
      `- ${check.target}: ${check.measured} — ${verdict(check)}${check.why ? ` (${check.why})` : ''}.`,
    )
  }
  const overload = result.socket.filter((row) => row.window && !row.window.held)
  if (overload.length > 0)
    lines.push(
      `**Overload rows.** ${overload.map((row) => `${row.system} at ${n(row.clients)} clients`).join(', ')} did not hold the full scenario rate; they are shown, labelled overload, and enter no ratio.`,
    )
  const everyWindow = [
    ...result.capacity.flatMap((report) => windowsOf(report)),
    ...(result.rounds?.systems.flatMap((entry) => entry.windows.flat()) ?? []),
  ].filter((window): window is SocketWindow => Boolean(window))
  const bound = everyWindow.filter((window) => window.generatorBound).length
  const boundCapacities = result.capacity
    .filter((report) => report.generatorBound)
    .map((report) => report.system)
  const boundRest = result.rest.flatMap((row) =>
    (row.rounds ?? []).filter((round) => round.generatorBound),
  ).length
  lines.push(
    `**Load generator.** ${n(bound)} of ${n(everyWindow.length)} socket windows were generator-bound (the generator over ${GENERATOR_MAX_PERCENT}% of its core); ${boundCapacities.length === 0 ? 'no capacity was' : `the capacities of ${boundCapacities.join(', ')} were`} (the generator over its bound, or the server under ${TARGET_MIN_PERCENT}% of its core, where it should have run out of room); ${n(boundRest)} REST rounds were. None of them enters a ratio.`,
  )
  return lines
}

/** The pairs the same-rate comparisons set side by side: a system and its floor or rival. */
const COMPARED_PAIRS: Array<[string, string]> = [
  [GATEWAY, BARE_WS_PREFRAMED],
  [GATEWAY, BARE_WS_CORKED],
  [GATEWAY, BARE_WS],
  [GATEWAY_REDIS, BARE_WS_CORKED],
  [GATEWAY_LISTS, BARE_WS_CORKED],
  [GATEWAY, GATEWAY_NO_DEPTH],
  [GATEWAY, SOCKET_IO_MEMORY],
  [GATEWAY, SOCKET_IO_MEMORY_RELIABLE],
  [GATEWAY, SOCKET_IO_REDIS],
  [GATEWAY, SOCKET_IO_REDIS_RELIABLE],
]
const HELD_RULE = `p99 ≤ ${HELD_P99_MS} ms over the window's fan-out floor (below) and ≥ ${HELD_DELIVERED_SHARE * 100}% of the offered frames delivered`

/** What every server under test started with beyond its defaults, for the Processes line. */
export function serverEnvNote(env: Record<string, string> | undefined): string {
  const settings = Object.entries(env ?? {})
  if (settings.length === 0) return ''
  const listed = settings.map(([key, value]) => `\`${key}=${value}\``).join(', ')
  return `; every Node server under test, gateway and baselines alike, started with ${listed}, as the gateway's image and \`npm start\` start it`
}

export function renderResultsMd(result: BenchResult, jsonFile: string): string {
  const checks = checkTargets(result)
  const sections = [
    runSection(result),
    targetsSection(result, checks),
    capacitySection(result),
    roundsSection(result),
    comparisonsSection(result),
    fullRateSection(result),
    restSection(result),
    hostileSection(result),
    ...(result.fedIdle ? [fedIdleSection(result.fedIdle)] : []),
    ...(result.proxied ? [proxiedContentionSection(result.proxied)] : []),
    ...(result.uploads ? [uploadsSection(result.uploads, result.uploadsFloor)] : []),
    analysisSection(result, checks),
  ]
  return `# Benchmark results

Generated by the harness (\`loadtests/bench/results-md.ts\`) from \`${jsonFile}\`. Every line of this
file, the analysis included, is worked out from that one run, but for the sections marked as separate
runs; rerun the command below to replace it.

${sections.join('\n\n')}
`
}

/** The command, machine, pinning and every rule the figures were taken by. */
function runSection(result: BenchResult): string {
  const m = result.machine
  const s = result.options.scenario
  return `## The run

- **Command:** \`${result.command}\` (from the repository root)${result.durationSeconds ? `, ${n(result.durationSeconds / 60, 1)} minutes` : ''}
- **Started:** ${result.startedAt}, run id \`${result.runId}\`
- **Machine:** ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB memory, Node ${m.node}, kernel ${m.kernel}
- **Load average (1 min):** ${result.loadAverage.start.toFixed(2)} at start, ${result.loadAverage.end.toFixed(2)} at end; cores busy just before it ${result.busyBeforePercent === undefined ? 'not recorded' : `${result.busyBeforePercent.toFixed(0)}%`}; CPU steal during the run ${result.stealPercent === undefined ? 'not recorded' : `${result.stealPercent.toFixed(1)}%`}${machineNote(result) ? ` — ${machineNote(result)}` : ''}
- **Pinning:** ${result.pinning === 'unavailable' ? 'unavailable (servers and load generator shared the cores)' : `load generator, tick feed, sandbox and Redis on core ${result.pinning.client}, every server under test alone on core ${result.pinning.server}`}
- **Processes:** ${result.baselinesBuilt ? 'every server under test ran as JavaScript under plain Node: the gateway as its bundle, each baseline built once per run into one file, its npm packages loaded from node_modules (no TypeScript loader, whose thread would be charged to its memory)' : "the gateway ran as its bundle, each baseline under tsx, a TypeScript loader whose thread and heap count in the baseline's memory"}${serverEnvNote(result.serverEnv)}
- **Redis:** ${result.redis ? (result.redis.own ? `the bench's own redis-server${result.redis.pinned ? `, pinned with the generator` : ''} (and a three-node cluster for ${GATEWAY_CLUSTER})` : `\`${result.redis.url}\`, as named`) : 'not recorded'}
- **Generator-bound:** a window where the load generator used more than ${GENERATOR_MAX_PERCENT}% of its core, or, where the window is to find the target's limit (REST at full speed, the step that decides a capacity), the target less than ${TARGET_MIN_PERCENT}% of its own, is flagged and enters no ratio.
- **Tick source:** one feed process for every system (\`baselines/tick-feed.ts\`): ${s.symbols} symbols; per symbol DETAIL ${s.rates.DETAIL}/s, TRADE ${s.rates.TRADE}/s, KLINE ${s.rates.KLINE}/s, DEPTH ${s.rates.DEPTH}/s (a 50-level snapshot, then sequenced updates).
- **Clients:** one native load generator for every system's windows and rounds (\`bench/native-gen.c\`: C, one thread on epoll, built with \`cc -O2\` at the start of the run; raw WebSocket, Socket.IO's packets spoken over it), its CPU read from its own process; in the reconnect storms it reopens each dropped socket after the waits the web client's back-off code draws for it. Each client trades one symbol (${Math.round(s.btcShare * 100)}% btcusdt) and subscribes its DETAIL, KLINE, TRADE and DEPTH, plus a market list of ${s.listSymbols} more symbols' DETAIL: 6 subscriptions. The list takes every tick, except in "${GATEWAY_LISTS}", where it asks for 1000 ms.
- **Windows:** ${n(result.options.measureMs / 1000, 1)} s (ramp steps ${n(result.options.rampMeasureMs / 1000, 1)} s). A window counts the frames published inside it, whenever they arrive; the offered rate is what the feed published in it times each topic's subscribers. A window is **held** when ${HELD_RULE}; list frames at a rate must arrive within the rate plus ${HELD_P99_MS} ms. Only held windows at the same offered rate make a ratio.
- **Rounds:** ${result.rounds ? `${result.options.socketRounds} interleaved round${result.options.socketRounds === 1 ? '' : 's'} of ${result.rounds.systems.map((entry) => entry.system).join(', ')} at ×${result.rounds.rates.join(' and ×')} (${result.rounds.ratesFrom}), ${n(result.rounds.clients)} sockets, ${n(result.options.roundMeasureMs / 1000, 1)} s windows, a fresh server and fleet per system and round` : 'not run'}. CPU ratios come only from windows of the same round.
- **REST:** wrk, one thread, ${result.options.restConnections} connections, ${n(result.options.restSeconds / result.options.restRounds, 1)} s per target and round, ${result.options.restRounds} interleaved round${result.options.restRounds === 1 ? '' : 's'}, plus ${n(result.options.serialRequests)} requests one at a time shared out over the rounds; figures are the median round's, ratios the median of same-round ratios.`
}

/** Each target of the performance issue, met or missed, with the floor beside it. */
function targetsSection(result: BenchResult, checks: TargetCheck[]): string {
  return `## Targets

${mdTable(
  checks.map((check) => [check.area, check.target, check.measured, verdict(check, '**'), check.why ?? '']),
  textColumns(['area', 'target', 'measured', 'met', 'why, and the floor beside it']),
)}`
}

/** Each system's held-rate capacity and every step of its ramp. */
function capacitySection(result: BenchResult): string {
  return `## Capacity

Each system's capacity at ${n(result.capacity[0]?.clients)} sockets: the tick rates are raised step by step (×1 is
the full scenario) until a step does not hold (${HELD_RULE}), then the gap is halved twice; "≥" marks
a capacity at the top of the ramp. "half" is a window at half the capacity's rate, where latency,
memory and the reconnect storm are judged. Every window, ramp step or half, that does not hold is measured
once more before it counts as not held. "generator stall" is the native load generator's longest pass over its ready sockets
in the half window: a frame that arrives during it waits that long, whichever system sent it.
"fan-out floor" is the most subscribed topic published in the window times the window's server CPU per
delivery: one frame of it, written to its subscribers one after another, reaches the last one that long
after the first, at any rate, so a p99 near it is set by that topic's size rather than by the load. It
is a lower bound: frames of several topics read in one turn go out in one pass over all their sockets.

${mdTable(result.capacity, [['system', (report) => report.system]], CAPACITY_COLUMNS)}

Every ramp step (rate multiplier: offered/s, delivered, p99 ms with the fan-out floor beside it, server µs per delivery, client CPU and the load generator's longest stall; ✗ = not held), then the windows at the rates the first system held that the ramp did not try:

${result.capacity
  .map((report) => {
    const extra = report.atReferenceRates ?? []
    const also = extra.length > 0 ? `; at the first system's rates: ${extra.map(stepText).join('; ')}` : ''
    return `- **${report.system}**: ${report.steps.map(stepText).join('; ')}${also}`
  })
  .join('\n')}`
}

/** The interleaved rounds, round by round. */
function roundsSection(result: BenchResult): string {
  return `## Interleaved rounds

Each system on a fresh server and fleet per round, every system in turn, ${n(result.rounds?.clients)} sockets. Per round:
offered/s, server µs per delivery, p99 ms, server / generator CPU; ✗ not held, ! generator-bound.

${result.rounds ? mdTable(roundRows(result.rounds), textColumns(['system', 'rate', 'rounds'])) : '_Not run._'}`
}

/** Every rate both systems of a pair held in the ramps, side by side. */
function comparisonsSection(result: BenchResult): string {
  return `## Same-rate comparisons in the ramps

Every rate scale at which both systems held, neither window generator-bound, at ${n(result.capacity[0]?.clients)} sockets (ramp steps and the
half-capacity windows). Figures are "system / floor".

${mdTable(
  COMPARED_PAIRS.flatMap(([system, floor]) => comparisonRows(result, system, floor)),
  textColumns([
    'system',
    'against',
    'rate',
    'offered/s',
    'µs per delivery',
    'ratio',
    'p99 ms',
    'p50 ms',
    'client cpu',
  ]),
)}`
}

/** One window per client count at the full scenario rates. */
function fullRateSection(result: BenchResult): string {
  return `## Sockets at the scenario's full rates

One window per client count at ×1. Rows that did not hold are labelled overload and enter no ratio.

${mdTable(
  result.socket,
  [
    ['system', (row) => row.system],
    ['clients', (row) => n(row.clients)],
  ],
  SOCKET_COLUMNS,
  socketFailed,
)}`
}

/** The REST targets, median round and range. */
function restSection(result: BenchResult): string {
  return `## REST

wrk, ${result.options.restConnections} connections. Each target is started, warmed up for ${n(result.options.warmupMs / 1000, 1)} s, measured for
${n(result.options.restSeconds / result.options.restRounds, 1)} s and stopped, in turn, over ${result.options.restRounds} rounds; req/s and CPU per request are the median round's
with the range of the rounds beside, latency percentiles the median round's. "generator cpu" and "target cpu" are
each round's share of one core. "one at a time" is ${n(result.options.serialRequests)} sequential requests over
one keep-alive connection, shared out over the rounds, a proxy's each paired with one to the sandbox it forwards to,
called directly; its figures are the median round's. "req/s per core" is 1,000,000 ÷ the CPU µs per request: what one core of this machine
serves of that call with the latency percentiles beside it (50 connections at full speed, so the p99 shown is
the bound it holds; sizing for a lower p99 means more headroom). "answer bytes" is one answer's body as sent, with its encoding. The target is
alone on the server core; the sandbox behind a proxy runs on the generator's core (the "sandbox direct"
row starts its own on the server core).

${mdTable(
  result.rest,
  [
    ['target', (row) => row.target],
    ['what', (row) => row.note ?? ''],
  ],
  REST_COLUMNS,
  restFailed,
)}`
}

/** The hostile row's bound, for /healthz and for each hostile request. */
const HOSTILE_BOUND_MS = 50

function hostileWithin(hostile: HostileReport): boolean {
  return hostile.healthzMs.p99 <= HOSTILE_BOUND_MS && hostile.hostileMs.max <= HOSTILE_BOUND_MS
}

/**
 * A late answer the generator may have made itself: its own loop was held past the bound while the
 * gateway's timer never ran that late. The schedule's clock is the generator's, so such a run is not
 * judged, as a generator-bound window enters no ratio; a gateway that stalled is judged whatever the
 * generator did.
 */
export function generatorStalled(hostile: HostileReport): boolean {
  return (
    hostile.generatorLoopMaxMs !== undefined &&
    hostile.generatorLoopMaxMs > HOSTILE_BOUND_MS &&
    hostile.gatewayLoop !== undefined &&
    hostile.gatewayLoop.over50ms === 0
  )
}

/**
 * Met within the bounds whatever the generator did (its stalls only make answers later); missed beyond
 * them, unless the generator stalled and the gateway did not, which is not judged.
 */
export function hostileVerdict(hostile: HostileReport): boolean | undefined {
  if (hostileWithin(hostile)) return true
  return generatorStalled(hostile) ? undefined : false
}

/** Which side stalled: the gateway's late loop-timer runs and the generator's longest loop delay. */
function hostileStalls(hostile: HostileReport): string {
  const parts = [
    generatorStalled(hostile) && 'not judged: the load generator stalled and the gateway did not',
    hostile.gatewayLoop &&
      `runs of the gateway's 10 ms loop timer more than 50 ms after the last: ${loopGapsText(hostile.gatewayLoop)}`,
    hostile.gatewayAnswers &&
      `answers the gateway took more than 50 ms over itself, from reading the request to writing the answer: ${slowAnswersText(hostile.gatewayAnswers)}`,
    hostile.generatorLoopMaxMs !== undefined &&
      `the generator's loop was held up to ${n(hostile.generatorLoopMaxMs, 1)} ms`,
  ].filter(Boolean)
  return parts.length > 0 ? `; ${parts.join(', ')}` : ''
}

/** The hostile-bodies row. */
function hostileSection(result: BenchResult): string {
  return `## Hostile bodies

The gateway in front of the sandbox, rate limit lifted. For each call with a JSON body, the largest
body it reads (not refused with 413) is found first. Then one client sends that size as an object of
extra keys and as an array of escaped strings, and 5 MiB uploads among them, over 10 connections:
back to back for the warm-up, which reads the rate they are answered, then on a schedule at
${OFFERED_SHARE * 100}% of that rate, each request sent when it comes due whatever is still unanswered. /healthz
is asked one request at a time over its own connection meanwhile. Times in ms, from the request's
place in the schedule to the whole answer, so a stall counts against every request due during it.
Where a stall was: "gateway loop gaps > 50 ms" counts the runs of the gateway's own 10 ms loop timer
(\`gateway_event_loop_delay_seconds\`) over the span that came more than 50 ms after the one before, of
all its runs (and those more than 20 ms after); "gateway answers > 50 ms" counts the answers of the span
(every route, /healthz included) that took the gateway more than 50 ms from reading the request to writing the
answer (\`gateway_http_request_duration_seconds\`), so a wait outside those, in the kernel or the load
generator, is not among them; "generator loop max" is the load generator's own longest
event-loop delay over the span.

${result.hostile ? mdTable([result.hostile], [['row', () => 'hostile bodies']], HOSTILE_COLUMNS, reportFailed) : '_Not run._'}`
}

/** Every fed idle start, each system's in turn: RSS, live heap and CPU at the feed's rate. */
function fedIdleSection(report: FedIdleReport): string {
  return `## Idle with the feed

Each system started afresh with no socket, its feed ticking at ×${report.rateScale} (the scenario's own rates) for ${n(report.seconds)} s,
then read: RSS; the heap it keeps alive, read through its inspector (opened only then) after a full collection,
the least of ${n(report.heapReadings)} readings a second apart, each holding what is in flight at its moment; and its CPU over the
span. The systems take turns, start after start.

${mdTable(
  report.systems.flatMap((entry) => [
    ...entry.readings.map((reading, index) => [
      entry.system,
      String(index + 1),
      n(reading.framesPerSecond),
      n(reading.rssMb, 1),
      n(reading.liveHeapMb, 2),
      reading.cpuPercent === undefined ? '-' : `${n(reading.cpuPercent, 1)}%`,
    ]),
    ...entry.errors.map((error) => [entry.system, 'failed', error, '', '', '']),
  ]),
  textColumns(['system', 'start', 'frames/s', 'RSS MiB', 'live heap MiB', 'CPU']),
)}`
}

/** The proxied call quiet and beside busy loops: every window, in round order. */
function proxiedContentionSection(report: ProxiedContentionReport): string {
  const o = report.options
  return `## The proxied call under contention

The gateway, ${'`'}${PROXIED_FLOOR}${'`'} and ${'`'}${PROXIED_FASTIFY_FLOOR}${'`'} (the same undici trip from one bare Fastify route:
what the gateway's path stands on before any of its own work) in front of one sandbox (on the generator's core), each round
measured quiet, then while one busy loop (${'`'}node -e 'for (;;) {}'${'`'}) is pinned to each of the ${report.busyLoops} cores, the loops
started once the target is warm: wrk with ${o.connections} connections, warmed up for ${n(o.warmupSeconds)} s, measured for ${n(o.seconds)} s, then
${n(o.serialRequests)} requests one at a time, each paired with one to the sandbox called directly (in turn, the order
swapped every pair): the overhead is the median of the pairs' differences. "upstream cpu" is the sandbox's CPU over the measured run per request the target completed. Beside the
loops no target can fill its core, so these windows are not judged generator-bound; ratios are same-round.${report.error ? `\n\n**Failed:** ${report.error}` : ''}

${mdTable(report.windows, PROXIED_CONTENTION_COLUMNS)}`
}

/** The signed-in uploads row on the gateway, its two targets judged, and the same uploads through the floor. */
export function uploadsSection(
  report: SignedInUploadsReport,
  floor: SignedInUploadsReport | undefined,
): string {
  const ratio = (r?: SignedInUploadsReport): string => (r?.ok ? `×${n(r.ratio, 1)}` : '-')
  const rssChange = (r?: SignedInUploadsReport): string =>
    r?.ok
      ? `${r.rssMb.after < r.rssMb.before ? '' : '+'}${n((r.rssMb.after / r.rssMb.before - 1) * 100)}%`
      : '-'
  const met = (yes: boolean): string => (report.ok ? (yes ? '**met**' : '**missed**') : 'not measured')
  return `## Signed-in uploads

The gateway in front of the sandbox, its upload budgets lifted and its in-flight bound per instance at
its default (per address lifted: every sender is 127.0.0.1). /healthz is asked one request at a time
for ${n(report.seconds)} s with nothing else sent, then for ${n(report.seconds)} s while 10 connections, each
a signed-in user, send ${n(report.uploadBytes / 2 ** 20, 1)} MiB uploads one after another. Then the same
through ${'`'}${PROXIED_FLOOR}${'`'} (the floor: the uploads streamed to the sandbox and nothing else), on a
sandbox of its own; it has no /metrics, so its RSS is read once steady, without waiting for a collection.

${mdTable(
  [{ ...report, row: 'the gateway' }, ...(floor ? [{ ...floor, row: `${PROXIED_FLOOR} (the floor)` }] : [])],
  [['row', (row) => row.row]],
  UPLOADS_COLUMNS,
  (row) => (row.ok ? undefined : `failed: ${row.error ?? 'no figures'}`),
)}

${mdTable(
  [
    [
      `/healthz p99 at most ${UPLOADS_HEALTHZ_RATIO}× its quiet value`,
      ratio(report),
      met(report.ratio <= UPLOADS_HEALTHZ_RATIO),
      ratio(floor),
    ],
    [
      `RSS ${n(report.rssMb.afterSeconds)} s after within ${Math.round((UPLOADS_RSS_SHARE - 1) * 100)}% of before`,
      rssChange(report),
      met(report.rssMb.after <= report.rssMb.before * UPLOADS_RSS_SHARE),
      rssChange(floor),
    ],
  ],
  textColumns(['target', 'the gateway', 'met', 'the floor beside it']),
)}`
}

/** What the figures say, worked out from them. */
function analysisSection(result: BenchResult, checks: TargetCheck[]): string {
  return `## Analysis

${analysis(result, checks).join('\n\n')}`
}

/** How a section's heading says its figures come from a run of their own (a phase run alone, rest-ab.ts). */
const SEPARATE_RUN = 'not part of the run above'

/** A markdown file's `## ` sections, each from its heading to the next one. */
const sectionsOf = (markdown: string): string[] => markdown.split(/^(?=## )/m).slice(1)
/** A section's name: its heading up to any parenthesis, so "Signed-in uploads (a separate run…)" is "Signed-in uploads". */
const sectionName = (section: string): string =>
  section.slice(3, section.indexOf('\n')).split(' (')[0]!.trim()

/**
 * The rendered file with the separate-run sections of the file it replaces kept at its end, unless
 * the run rendered a section of the same name itself: those figures are newer.
 */
export function keepSeparateRuns(previous: string, rendered: string): string {
  const renderedNames = new Set(sectionsOf(rendered).map(sectionName))
  const kept = sectionsOf(previous).filter(
    (section) =>
      section.slice(0, section.indexOf('\n')).includes(SEPARATE_RUN) &&
      !renderedNames.has(sectionName(section)),
  )
  if (kept.length === 0) return rendered
  return `${rendered.trimEnd()}\n\n${kept.map((section) => section.trimEnd()).join('\n\n')}\n`
}

/**
 * Writes RESULTS.md from a run's JSON, keeping the sections of separate runs the file held, formatted
 * like every other file so the prettier check stays clean.
 */
export async function writeResultsMd(result: BenchResult, jsonFile: string, target: string): Promise<void> {
  const previous = existsSync(target) ? readFileSync(target, 'utf8') : ''
  const markdown = keepSeparateRuns(previous, renderResultsMd(result, path.relative(loadtestsDir, jsonFile)))
  const config = await prettier.resolveConfig(target)
  writeFileSync(target, await prettier.format(markdown, { ...config, filepath: target }))
  console.log(`wrote ${path.relative(process.cwd(), target) || target}`)
}
