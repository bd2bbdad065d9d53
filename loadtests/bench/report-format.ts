// Numbers, table headers and row cells of RESULTS.md, which the bench also prints when it ends.
import { GENERATOR_MAX_PERCENT } from './generator-bound'
import { spread } from './percentiles'
import type {
  BenchResult,
  CapacityReport,
  FanOutFloor,
  GatewayAnswers,
  HostileReport,
  LoopGaps,
  ProxiedWindow,
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
  const kept = values.filter((value) => Number.isFinite(value))
  const median = spread(kept)?.median
  if (median === undefined) return '-'
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

/** A table's columns, each header beside the cell it heads. */
export type Columns<T> = Array<[header: string, cell: (row: T) => string]>

/**
 * The one way RESULTS.md builds a table: a row per item, its `labels` (the system's name…), then
 * its figures, or where `failed` names why it has none (a failed or skipped row) that, the rest left
 * empty.
 */
export function mdTable<T>(
  rows: readonly T[],
  labels: Columns<T>,
  figures: Columns<T> = [],
  failed: (row: T) => string | undefined = () => undefined,
): string {
  const header = [...labels, ...figures].map(([title]) => title)
  const line = (cells: string[]): string =>
    `| ${header.map((_, index) => (cells[index] ?? '').replace(/\|/g, '\\|')).join(' | ')} |`
  const cells = (row: T): string[] => {
    const why = failed(row)
    const named = labels.map(([, cell]) => cell(row))
    return why === undefined ? [...named, ...figures.map(([, cell]) => cell(row))] : [...named, why]
  }
  return [line(header), line(header.map(() => '---')), ...rows.map((row) => line(cells(row)))].join('\n')
}

/** Columns of rows already in words, cell by cell. */
export const textColumns = (header: string[]): Columns<string[]> =>
  header.map((title, index) => [title, (row) => row[index] ?? ''])

/** A socket row's figures at full rate; a failed row says why it has none. */
export const SOCKET_COLUMNS: Columns<SocketRow> = [
  ['offered/s', ({ window }) => n(window!.offeredPerSecond)],
  ['delivered/s', ({ window }) => n(window!.deliveredPerSecond)],
  ['delivered', ({ window }) => `${n(window!.deliveredShare * 100, 1)}%`],
  ['p50', ({ window }) => n(window!.latencyMs.p50)],
  ['p99', ({ window }) => n(window!.latencyMs.p99)],
  ['p99.9', ({ window }) => n(window!.latencyMs.p999)],
  ['cpu µs/msg', ({ window }) => n(window!.serverCpuMicrosPerDelivery, 2)],
  ['server cpu', ({ window }) => `${n(window!.serverCpuPercent)}%`],
  ['client cpu', ({ window }) => `${n(window!.clientCpuPercent)}%`],
  ['RSS at start MiB', (row) => n(row.rssBaselineMb, 1)],
  ['KiB/conn grown', (row) => n(row.rssPerConnectionKb, 1)],
  ['KiB/conn total', (row) => n(row.rssTotalPerConnectionKb, 1)],
  ['connect/s', (row) => n(row.connect?.perSecond)],
  ['held?', ({ window }) => heldLabel(window!)],
]
export const socketFailed = (row: SocketRow): string | undefined =>
  !row.ok || !row.window ? `FAILED: ${row.error ?? 'no figures'}` : undefined

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

/** A cell of the capacity window, or of the half-capacity one; '-' where there is none. */
const atCapacity =
  (cell: (window: SocketWindow) => string) =>
  (report: CapacityReport): string =>
    report.capacity ? cell(report.capacity) : '-'
const atHalf =
  (cell: (window: NonNullable<CapacityReport['half']>) => string) =>
  (report: CapacityReport): string =>
    report.half ? cell(report.half) : '-'

export const CAPACITY_COLUMNS: Columns<CapacityReport> = [
  ['clients', (report) => n(report.clients)],
  ['capacity (offered/s held)', capacityText],
  ['p99 there', atCapacity((window) => n(window.latencyMs.p99))],
  ['fan-out floor there', atCapacity((window) => floorText(window.fanOutFloor))],
  ['µs/msg there', atCapacity((window) => n(window.serverCpuMicrosPerDelivery, 2))],
  ['list there', atCapacity(listCell)],
  ['half at', atHalf((half) => `×${half.rateScale}`)],
  ['half p50', atHalf((half) => n(half.latencyMs.p50))],
  ['half p99', atHalf((half) => n(half.latencyMs.p99))],
  ['half: generator stall ms', atHalf((half) => n(half.clientLoopDelayMs?.max))],
  ['half KiB/conn', atHalf((half) => n(half.rssPerConnectionKb, 1))],
  [
    'reconnect storm, back-off with full jitter',
    (report) => (report.error ? `FAILED: ${report.error}` : stormCell(report.storm)),
  ],
  ['reconnect storm, fixed 3 s interval', (report) => stormCell(report.stormFixed)],
]

/** The lowest and highest of one figure over a REST row's rounds. */
const roundsRange = (pick: (round: RestRound) => number | undefined) => (row: RestRow) =>
  rangeText((row.rounds ?? []).map(pick).filter((value): value is number => value !== undefined))

export const REST_COLUMNS: Columns<RestRow> = [
  ['req/s (median)', (row) => n(row.requestsPerSecond)],
  ['rounds req/s', (row) => rangeText(row.roundsPerSecond ?? [])],
  ['generator cpu', (row) => `${roundsRange((round) => round.generatorCpuPercent)(row)}%`],
  ['target cpu', (row) => `${roundsRange((round) => round.targetCpuPercent)(row)}%`],
  [
    'generator-bound rounds',
    ({ rounds = [] }) => {
      const bound = rounds.filter((round) => round.generatorBound).length
      return bound === 0 ? 'none' : `${bound} of ${rounds.length}`
    },
  ],
  ['p50', (row) => n(row.latencyMs!.p50, 2)],
  ['p90', (row) => n(row.latencyMs!.p90, 2)],
  ['p99', (row) => n(row.latencyMs!.p99, 2)],
  ['p99.9', (row) => n(row.latencyMs!.p999, 2)],
  ['one at a time p50', (row) => n(row.serialLatencyMs?.p50, 3)],
  [
    'p99',
    ({ serialLatencyMs: serial }) =>
      `${n(serial?.p99, 3)}${serial?.shed ? ` (${serial.shed} shed, retried)` : ''}`,
  ],
  ['cpu µs/req', (row) => n(row.serverCpuMicrosPerRequest, 1)],
  // what one core serves at this CPU per request, the p99 beside it being what 50 connections saw
  ['req/s per core', ({ serverCpuMicrosPerRequest: cpu }) => n(cpu ? 1e6 / cpu : undefined)],
  ['answer bytes', ({ answer }) => (answer ? `${n(answer.bytes)} ${answer.encoding}` : '-')],
  ['errors', (row) => String((row.errors ?? 0) + (row.non2xx ?? 0))],
]
/** Why a REST row has no figures: skipped, or failed. */
export const restFailed = (row: RestRow): string | undefined =>
  row.unavailable
    ? `skipped: ${row.unavailable}`
    : !row.ok || !row.latencyMs
      ? `FAILED: ${row.error ?? 'no figures'}`
      : undefined

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

/** The JSON calls' bodies (each sent in two shapes), their sizes, and the uploads sent among them. */
function hostileBodies(report: HostileReport): string {
  const json = report.calls.filter((call) => !call.shape.startsWith('upload'))
  const uploads = report.calls.length - json.length
  return `${n(json.length / 2)} calls × 2 shapes${uploads ? `, ${n(uploads)} 5 MiB uploads (p99 ${n(report.uploads?.p99, 1)} ms)` : ''}`
}

function hostileSizes(report: HostileReport): string {
  const sizes = report.calls.filter((call) => !call.shape.startsWith('upload')).map((call) => call.bytes)
  return `${n(Math.min(...sizes) / 1024)}–${n(Math.max(...sizes) / 1024)} KiB`
}

export const HOSTILE_COLUMNS: Columns<HostileReport> = [
  ['bodies', hostileBodies],
  ['body size', hostileSizes],
  [
    'offered/s',
    (report) => (report.offeredPerSecond === undefined ? 'back to back' : n(report.offeredPerSecond)),
  ],
  ['req/s', (report) => n(report.requestsPerSecond)],
  ['hostile p50', (report) => n(report.hostileMs.p50, 1)],
  ['p99', (report) => n(report.hostileMs.p99, 1)],
  ['max', (report) => n(report.hostileMs.max, 1)],
  ['/healthz p50', (report) => n(report.healthzMs.p50, 2)],
  ['p99', (report) => n(report.healthzMs.p99, 2)],
  ['max', (report) => n(report.healthzMs.max, 1)],
  ['server cpu', (report) => `${n(report.serverCpuPercent)}%`],
  [
    'generator cpu',
    (report) => (report.generatorCpuPercent === undefined ? '-' : `${n(report.generatorCpuPercent)}%`),
  ],
  ['answers', hostileStatuses],
  ['gateway loop gaps > 50 ms', (report) => (report.gatewayLoop ? loopGapsText(report.gatewayLoop) : '-')],
  [
    'gateway answers > 50 ms',
    (report) => (report.gatewayAnswers ? slowAnswersText(report.gatewayAnswers) : '-'),
  ],
  [
    'generator loop max ms',
    (report) => (report.generatorLoopMaxMs === undefined ? '-' : n(report.generatorLoopMaxMs, 1)),
  ],
]

/** Of the gateway's 10 ms loop timer runs over a span, those more than 50 (and 20) ms after the last. */
export function loopGapsText(gaps: LoopGaps): string {
  return `${n(gaps.over50ms)} of ${n(gaps.samples)} (> 20 ms: ${n(gaps.over20ms)})`
}
/** Of the gateway's answers over a span, those it took more than 50 ms over itself. */
export function slowAnswersText(answers: GatewayAnswers): string {
  return `${n(answers.over50ms)} of ${n(answers.answers)}`
}
export const reportFailed = (report: { ok: boolean; error?: string }): string | undefined =>
  report.ok ? undefined : `FAILED: ${report.error ?? 'no figures'}`

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

const unsettled = (ok: boolean | undefined) => (ok === false ? ' (not settled)' : '')

/** A signed-in uploads row: /healthz p99 quiet and loaded, the answers, the RSS (MB). */
export const UPLOADS_COLUMNS: Columns<SignedInUploadsReport> = [
  ['/healthz p99 quiet', (report) => `${n(report.healthzQuietMs.p99, 1)} ms`],
  ['loaded', (report) => `${n(report.healthzLoadedMs.p99, 1)} ms`],
  ['ratio', (report) => `×${n(report.ratio, 1)}`],
  [
    'uploads',
    (report) =>
      Object.entries(report.statuses)
        .map(([status, count]) => `${status} ×${n(count)}`)
        .join(', '),
  ],
  ['RSS before', ({ rssMb }) => `${n(rssMb.before)} MB${unsettled(rssMb.settled?.before)}`],
  ['peak', ({ rssMb }) => `${n(rssMb.peak)} MB`],
  [
    'after',
    ({ rssMb }) => `${n(rssMb.after)} MB ${n(rssMb.afterSeconds)} s after${unsettled(rssMb.settled?.after)}`,
  ],
]

/** Every window of the proxied phase, in round order, the overhead over the sandbox called directly beside. */
export const PROXIED_CONTENTION_COLUMNS: Columns<ProxiedWindow> = [
  ['round', (window) => String(window.round + 1)],
  ['condition', (window) => window.condition],
  ['target', (window) => window.target],
  ['req/s', (window) => n(window.requestsPerSecond)],
  ['p50 / p99 ms', ({ latencyMs }) => `${n(latencyMs.p50, 2)} / ${n(latencyMs.p99, 2)}`],
  ['cpu µs/req', (window) => n(window.cpuMicrosPerRequest, 1)],
  ['upstream cpu µs/req', (window) => n(window.upstreamCpuMicrosPerRequest, 1)],
  ['target cpu %', (window) => n(window.targetCpuPercent)],
  ['one at a time p50 ms', ({ serialP50Ms }) => n(serialP50Ms, 3)],
  ['direct p50 ms', ({ directSerialP50Ms }) => n(directSerialP50Ms, 3)],
  ['overhead over direct ms', ({ serialOverheadMs }) => n(serialOverheadMs, 3)],
  ['load avg', (window) => window.loadAverage.toFixed(1)],
]
