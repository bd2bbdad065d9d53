// Numbers, table headers and row cells of RESULTS.md, which the bench also prints when it ends.
import { GENERATOR_MAX_PERCENT } from './generator-bound'
import type {
  BenchResult,
  CapacityReport,
  FanOutFloor,
  HostileReport,
  ProxiedContentionReport,
  RestRound,
  RestRow,
  SignedInUploadsReport,
  SocketRounds,
  SocketRow,
  SocketWindow,
  StormRow,
} from './types'

/** A figure, or '-' for none: NaN in a run, null once the run's JSON is read back (`--render`). */
export function formatNumber(value: number | null | undefined, digits = 0): string {
  if (value === undefined || value === null || Number.isNaN(value)) return '-'
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}
const n = formatNumber

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

/** A storm in a cell: time until every socket had a frame, the server's peak CPU, retries, SUBSCRIBEs. */
export function stormCell(storm: StormRow | undefined): string {
  if (!storm) return '-'
  const problems = [
    storm.failed ? `${n(storm.failed)} failed` : '',
    storm.missing ? `${n(storm.missing)} missing` : '',
  ].filter(Boolean)
  const details = [
    `peak cpu ${n(storm.peakServerCpuPercent)}%`,
    `${n(storm.retries)} retries`,
    ...(storm.bus ? [`${n(storm.bus.subscribeCommands)} SUBSCRIBEs for ${n(storm.bus.topics)} topics`] : []),
    ...problems,
  ].join(', ')
  return `${problems.length === 0 ? '' : 'not done in '}${n(storm.ms)} ms (${details})`
}

/** The lowest and highest of some figures, e.g. `41–63` (a REST target's slowest and fastest round), or one figure. */
export function rangeText(values: number[], digits = 0): string {
  if (values.length === 0) return '-'
  const low = Math.min(...values)
  const high = Math.max(...values)
  return low === high ? n(low, digits) : `${n(low, digits)}–${n(high, digits)}`
}

/** A median with its range: `7.32 (7.10–7.51)`. */
export function medianRange(values: number[], digits = 0): string {
  const kept = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (kept.length === 0) return '-'
  const median = kept[Math.floor((kept.length - 1) / 2)]!
  return kept.length === 1 ? n(median, digits) : `${n(median, digits)} (${rangeText(kept, digits)})`
}

/** "held", or "overload: <why>": an overload window never enters a ratio. */
export function heldLabel(window: SocketWindow): string {
  return window.held ? 'held' : `overload (${window.verdict})`
}

/** The market list's figures when it asks for a rate, and whether the system kept to it. */
export function listCell(window: SocketWindow): string {
  const rated = window.rated
  if (!rated) return '-'
  const note = rated.rateIgnored ? ', rate not kept: more frames than it allows' : ''
  return `${n(rated.deliveredPerSecond)}/s (${n(rated.minPerSecond)}–${n(rated.maxPerSecond)} allowed), p99 ${n(rated.latencyMs.p99)} ms${note}`
}

/** A window's figure cells: offered, delivered, share, latency, CPU, held or overload. */
export function windowCells(window: SocketWindow): string[] {
  return [
    n(window.offeredPerSecond),
    n(window.deliveredPerSecond),
    `${n(window.deliveredShare * 100, 1)}%`,
    n(window.latencyMs.p50),
    n(window.latencyMs.p99),
    n(window.latencyMs.p999),
    n(window.serverCpuMicrosPerDelivery, 2),
    `${n(window.serverCpuPercent)}%`,
    `${n(window.clientCpuPercent)}%`,
  ]
}
export const WINDOW_HEADER = [
  'offered/s',
  'delivered/s',
  'delivered',
  'p50',
  'p99',
  'p99.9',
  'cpu µs/msg',
  'server cpu',
  'client cpu',
]

/** A socket row's cells after its system name: the figures, or why there are none. */
export function socketCells(row: SocketRow): string[] {
  if (!row.ok || !row.window) return [n(row.clients), `FAILED: ${row.error ?? 'no figures'}`]
  return [
    n(row.clients),
    ...windowCells(row.window),
    n(row.rssBaselineMb, 1),
    n(row.rssPerConnectionKb, 1),
    n(row.rssTotalPerConnectionKb, 1),
    n(row.connect?.perSecond),
    heldLabel(row.window),
  ]
}
export const SOCKET_HEADER = [
  'clients',
  ...WINDOW_HEADER,
  'idle RSS MiB',
  'KiB/conn grown',
  'KiB/conn total',
  'connect/s',
  'held?',
]

/**
 * A capacity flagged by the generator rule, in words: whether the generator was the one out of room
 * at the highest step, or neither core was full (the step failed on latency or delivery).
 */
export function capacityBound(report: CapacityReport): string {
  const top = report.steps.at(-1)
  return top && top.clientCpuPercent <= GENERATOR_MAX_PERCENT
    ? 'not a CPU limit: neither core full'
    : 'generator-bound'
}

/** Capacity in words: the held step, "at least" when the ramp never failed, or that none held. */
export function capacityText(report: CapacityReport): string {
  if (report.steps.length === 0) return report.error ? `FAILED: ${report.error}` : 'not measured'
  const capacity = report.capacity
  if (!capacity)
    return `no held rate (lowest step tried ×${Math.min(...report.steps.map((s) => s.rateScale))})`
  const bound = report.generatorBound ? ` (${capacityBound(report)})` : ''
  return `${report.atTopOfRamp ? '≥ ' : ''}${n(capacity.offeredPerSecond)}/s at ×${capacity.rateScale}${bound}`
}

/**
 * A window's fan-out floor in words, "45 ms (3,298 × 13.2 µs)": the hottest topic's subscribers times
 * the CPU per delivery. '-' for a run from before it was recorded.
 */
export function floorText(floor: FanOutFloor | undefined): string {
  if (!floor) return '-'
  return `${n(floor.ms)} ms (${n(floor.subscribers)} × ${n(floor.microsPerDelivery, 1)} µs)`
}

/** " (floor 25)" after a p99, in ms; nothing for a run from before the floor was recorded. */
export function floorMark(window: SocketWindow): string {
  return window.fanOutFloor ? ` (floor ${n(window.fanOutFloor.ms)})` : ''
}

export function capacityCells(report: CapacityReport): string[] {
  const half = report.half
  const capacity = report.capacity
  return [
    n(report.clients),
    capacityText(report),
    capacity ? n(capacity.latencyMs.p99) : '-',
    capacity ? floorText(capacity.fanOutFloor) : '-',
    capacity ? n(capacity.serverCpuMicrosPerDelivery, 2) : '-',
    capacity ? listCell(capacity) : '-',
    half ? `×${half.rateScale}` : '-',
    half ? n(half.latencyMs.p50) : '-',
    half ? n(half.latencyMs.p99) : '-',
    half?.clientLoopDelayMs ? n(half.clientLoopDelayMs.max) : '-',
    half ? n(half.rssPerConnectionKb, 1) : '-',
    report.error ? `FAILED: ${report.error}` : stormCell(report.storm),
    stormCell(report.stormFixed),
  ]
}
export const CAPACITY_HEADER = [
  'clients',
  'capacity (offered/s held)',
  'p99 there',
  'fan-out floor there',
  'µs/msg there',
  'list there',
  'half at',
  'half p50',
  'half p99',
  'half: generator stall ms',
  'half KiB/conn',
  'reconnect storm, back-off with full jitter',
  'reconnect storm, fixed 3 s interval',
]

/** A REST row's figure cells (req/s, rounds, latency, one at a time, CPU, answer, errors), or why there are none. */
export function restCells(row: RestRow): string[] {
  if (row.unavailable) return [`skipped: ${row.unavailable}`]
  if (!row.ok || !row.latencyMs) return [`FAILED: ${row.error ?? 'no figures'}`]
  const rounds = row.rounds ?? []
  const cpuRange = (pick: (round: RestRound) => number | undefined): string =>
    rangeText(rounds.map(pick).filter((value): value is number => value !== undefined))
  const bound = rounds.filter((round) => round.generatorBound).length
  return [
    n(row.requestsPerSecond),
    rangeText(row.roundsPerSecond ?? []),
    `${cpuRange((round) => round.generatorCpuPercent)}%`,
    `${cpuRange((round) => round.targetCpuPercent)}%`,
    bound === 0 ? 'none' : `${bound} of ${rounds.length}`,
    n(row.latencyMs.p50, 2),
    n(row.latencyMs.p90, 2),
    n(row.latencyMs.p99, 2),
    n(row.latencyMs.p999, 2),
    n(row.serialLatencyMs?.p50, 3),
    `${n(row.serialLatencyMs?.p99, 3)}${row.serialLatencyMs?.shed ? ` (${row.serialLatencyMs.shed} shed, retried)` : ''}`,
    n(row.serverCpuMicrosPerRequest, 1),
    // what one core serves at this CPU per request, the p99 beside it being what 50 connections saw
    n(row.serverCpuMicrosPerRequest ? 1e6 / row.serverCpuMicrosPerRequest : undefined),
    row.answer ? `${n(row.answer.bytes)} ${row.answer.encoding}` : '-',
    String((row.errors ?? 0) + (row.non2xx ?? 0)),
  ]
}
export const REST_HEADER = [
  'req/s (median)',
  'rounds req/s',
  'generator cpu',
  'target cpu',
  'generator-bound rounds',
  'p50',
  'p90',
  'p99',
  'p99.9',
  'one at a time p50',
  'p99',
  'cpu µs/req',
  'req/s per core',
  'answer bytes',
  'errors',
]

/** Status codes the hostile requests got, over every call, e.g. `400 ×5,120, 413 ×12`. */
export function hostileStatuses(report: HostileReport): string {
  const totals = new Map<string, number>()
  for (const call of report.calls)
    for (const [status, count] of Object.entries(call.statuses))
      totals.set(status, (totals.get(status) ?? 0) + count)
  return (
    [...totals]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status === '0' ? 'no answer' : status} ×${n(count)}`)
      .join(', ') || '-'
  )
}

export function hostileCells(report: HostileReport): string[] {
  if (!report.ok) return [`FAILED: ${report.error ?? 'no figures'}`]
  const json = report.calls.filter((call) => !call.shape.startsWith('upload'))
  const uploads = report.calls.length - json.length
  const sizes = json.map((call) => call.bytes)
  return [
    `${n(json.length / 2)} calls × 2 shapes${uploads ? `, ${n(uploads)} 5 MiB uploads (p99 ${n(report.uploads?.p99, 1)} ms)` : ''}`,
    `${n(Math.min(...sizes) / 1024)}–${n(Math.max(...sizes) / 1024)} KiB`,
    n(report.requestsPerSecond),
    n(report.hostileMs.p50, 1),
    n(report.hostileMs.p99, 1),
    n(report.hostileMs.max, 1),
    n(report.healthzMs.p50, 2),
    n(report.healthzMs.p99, 2),
    n(report.healthzMs.max, 1),
    `${n(report.serverCpuPercent)}%`,
    hostileStatuses(report),
  ]
}
export const HOSTILE_HEADER = [
  'bodies',
  'body size',
  'req/s',
  'hostile p50',
  'p99',
  'max',
  '/healthz p50',
  'p99',
  'max',
  'server cpu',
  'answers',
]

/** One window of the rounds in a few figures. */
export function roundWindowText(window: SocketWindow | undefined): string {
  if (!window) return 'failed'
  const marks = `${window.held ? '' : ' ✗'}${window.generatorBound ? ' !' : ''}`
  return `${n(window.offeredPerSecond)}/s ${n(window.serverCpuMicrosPerDelivery, 2)} µs p99 ${n(window.latencyMs.p99)}${floorMark(window)} ${n(window.serverCpuPercent)}%/${n(window.clientCpuPercent)}%${marks}`
}

export function roundRows(rounds: SocketRounds): string[][] {
  return rounds.systems.flatMap((entry) =>
    rounds.rates.map((rate, index) => [
      entry.system,
      `×${rate}`,
      (entry.windows[index] ?? []).map(roundWindowText).join(' | ') || entry.errors.join('; '),
    ]),
  )
}

export const UPLOADS_HEADER = [
  '/healthz p99 quiet',
  'loaded',
  'ratio',
  'uploads',
  'RSS before',
  'peak',
  'after',
]

/** One signed-in uploads row: /healthz p99 quiet and loaded, the answers, the RSS (MB). */
export function uploadsCells(report: SignedInUploadsReport): string[] {
  if (!report.ok) return [`failed: ${report.error ?? 'no figures'}`]
  const statuses = Object.entries(report.statuses)
    .map(([status, count]) => `${status} ×${n(count)}`)
    .join(', ')
  const { before, peak, after, afterSeconds, settled } = report.rssMb
  const unsettled = (ok: boolean | undefined) => (ok === false ? ' (not settled)' : '')
  return [
    `${n(report.healthzQuietMs.p99, 1)} ms`,
    `${n(report.healthzLoadedMs.p99, 1)} ms`,
    `×${n(report.ratio, 1)}`,
    statuses,
    `${n(before)} MB${unsettled(settled?.before)}`,
    `${n(peak)} MB`,
    `${n(after)} MB ${n(afterSeconds)} s after${unsettled(settled?.after)}`,
  ]
}

/** Every window of the phase, for RESULTS.md and stdout. */
export function proxiedContentionRows(report: ProxiedContentionReport): string[][] {
  return report.windows.map((window) => {
    const direct = report.directSerialP50Ms[window.round]?.[window.condition]
    return [
      String(window.round + 1),
      window.condition,
      window.target,
      n(window.requestsPerSecond),
      `${n(window.latencyMs.p50, 2)} / ${n(window.latencyMs.p99, 2)}`,
      n(window.cpuMicrosPerRequest, 1),
      n(window.upstreamCpuMicrosPerRequest, 1),
      n(window.targetCpuPercent),
      window.serialP50Ms === undefined ? '-' : n(window.serialP50Ms, 3),
      direct === undefined || window.serialP50Ms === undefined ? '-' : n(window.serialP50Ms - direct, 3),
      window.loadAverage.toFixed(1),
    ]
  })
}

export const PROXIED_CONTENTION_HEADER = [
  'round',
  'condition',
  'target',
  'req/s',
  'p50 / p99 ms',
  'cpu µs/req',
  'upstream cpu µs/req',
  'target cpu %',
  'one at a time p50 ms',
  'overhead over direct ms',
  'load avg',
]
