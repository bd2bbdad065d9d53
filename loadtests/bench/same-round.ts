/**
 * Targets judged from same-round pairs: the socket rounds (two systems at one rate in one round), the
 * REST rounds (two targets in one round) and the proxied rounds (the gateway and its floor, quiet and
 * beside busy loops). Each ratio is a median of per-round ratios with their range; a window or round
 * flagged generator-bound, or not held, is left out.
 */
import { sameRoundRatios } from './generator-bound'
import { median } from './percentiles'
import { formatNumber as n, medianRange } from './report-format'
import { PROXIED_FASTIFY_FLOOR, PROXIED_FLOOR, PROXIED_GATEWAY } from './rest-targets'
import { CONTENTION_CONDITIONS } from './types'
import type {
  ContentionCondition,
  ProxiedContentionReport,
  ProxiedWindow,
  RestRound,
  RestRow,
  SocketRounds,
  SocketWindow,
} from './types'

export interface TargetCheck {
  area: string
  target: string
  measured: string
  met: boolean | undefined
  /** Where missed or not measured: why, naming the floor measured beside it. */
  why?: string
}

export type RatioSpread = NonNullable<ReturnType<typeof sameRoundRatios>>

/** `1.02× (median of 3 same-round ratios, 0.98–1.05)` */
export function spreadText(ratio: RatioSpread): string {
  const count = ratio.ratios.length
  const range = count > 1 ? `, ${ratio.low.toFixed(2)}–${ratio.high.toFixed(2)}` : ''
  return `${ratio.median.toFixed(2)}× (${count === 1 ? 'one round' : `median of ${count} same-round ratios`}${range})`
}

/** CPU per socket-second (µs): the server's CPU over the window divided by sockets × seconds. */
function cpuPerSocketSecond(window: SocketWindow | undefined): number | undefined {
  if (!window?.sockets || window.serverCpuPercent === undefined) return undefined
  return ((window.serverCpuPercent / 100) * 1e6) / window.sockets
}

/** A window usable in a ratio: held, and not limited by the generator. */
function usable(window: SocketWindow | undefined): SocketWindow | undefined {
  return window && window.held && !window.generatorBound ? window : undefined
}

function windowsAt(
  rounds: SocketRounds | undefined,
  system: string,
  rateIndex: number,
): Array<SocketWindow | undefined> {
  return rounds?.systems.find((entry) => entry.system === system)?.windows[rateIndex] ?? []
}

/** Rounds windows in a few words: why a pair made no ratio. */
function unusable(windows: Array<SocketWindow | undefined>, system: string): string | undefined {
  if (windows.length === 0) return `${system} was not measured in the rounds`
  if (windows.some((window) => usable(window))) return undefined
  const why = windows.map((window) =>
    !window
      ? 'failed'
      : window.generatorBound
        ? `generator-bound (${window.generatorBound})`
        : `not held (${window.verdict})`,
  )
  return `${system}: ${why.join('; ')}`
}

export interface RoundsPair {
  /** The rate index used: the highest at which a ratio exists. */
  rate?: number
  ratio?: RatioSpread
  /** Median figures of each side at that rate. */
  a?: string
  b?: string
  why?: string
}

/** A metric of two systems in the rounds, as same-round ratios at the highest rate that has any. */
export function roundsPair(
  rounds: SocketRounds | undefined,
  a: string,
  b: string,
  metric: (window: SocketWindow) => number | undefined,
  digits = 2,
  rateIndexes?: number[],
): RoundsPair {
  if (!rounds) return { why: 'the rounds were not run' }
  const indexes = rateIndexes ?? rounds.rates.map((_, index) => index).reverse()
  let why: string | undefined
  for (const index of indexes) {
    const pick = (system: string): Array<number | undefined> =>
      windowsAt(rounds, system, index).map((window) => (usable(window) ? metric(window!) : undefined))
    const ratio = sameRoundRatios(pick(a), pick(b))
    if (ratio) {
      const median = (values: Array<number | undefined>): string =>
        medianRange(
          values.filter((value): value is number => value !== undefined),
          digits,
        )
      return { rate: rounds.rates[index], ratio, a: median(pick(a)), b: median(pick(b)) }
    }
    why ??= [unusable(windowsAt(rounds, a, index), a), unusable(windowsAt(rounds, b, index), b)]
      .filter(Boolean)
      .join('; ')
  }
  return { why: why || 'no round measured both' }
}

/** A CPU-per-delivery target from the rounds: `system` ≤ `at` × `floor` (undefined `at`: reported only). */
export function roundsCpuCheck(
  rounds: SocketRounds | undefined,
  area: string,
  system: string,
  floor: string,
  at: number | undefined,
): TargetCheck {
  const pair = roundsPair(rounds, system, floor, (window) => window.serverCpuMicrosPerDelivery)
  return {
    area,
    target:
      at === undefined
        ? `CPU per delivery: ${system} beside ${floor}, same rate, same round`
        : `CPU per delivery: ${system} ≤ ${at}× ${floor}, same rate, same round`,
    measured: pair.ratio
      ? `${pair.a} vs ${pair.b} µs at ×${pair.rate}: ${spreadText(pair.ratio)}`
      : `no ratio: ${pair.why}`,
    met: pair.ratio && at !== undefined ? pair.ratio.median <= at : undefined,
    why:
      at === undefined
        ? 'reported beside, not a target'
        : pair.ratio && pair.ratio.median > at
          ? `${floor}, the floor, ${pair.b} µs per delivery in the same rounds`
          : undefined,
  }
}

/** The lists at a rate against raw ticks: same sockets, same tick rate, CPU per socket-second. */
export function listsCheck(
  rounds: SocketRounds | undefined,
  lists: string,
  raw: string,
  rateMs: number,
): TargetCheck {
  const pair = roundsPair(rounds, lists, raw, cpuPerSocketSecond, 1)
  const held = (system: string): string => {
    const windows = rounds?.systems.find((entry) => entry.system === system)?.windows.flat() ?? []
    return `${windows.filter((window) => window?.held).length} of ${windows.length}`
  }
  const ignored = (rounds?.systems.find((entry) => entry.system === lists)?.windows.flat() ?? []).some(
    (window) => window?.rated?.rateIgnored,
  )
  return {
    area: 'rates',
    target: `market lists at ${rateMs} ms against raw ticks: windows held and CPU per socket-second, the same sockets and tick rate`,
    measured: `${pair.ratio ? `${pair.a} vs ${pair.b} µs per socket-second at ×${pair.rate}: ${spreadText(pair.ratio)}` : `no ratio: ${pair.why}`}; windows held ${held(lists)} vs ${held(raw)} raw${ignored ? '; the gateway sent the list every tick' : ''}`,
    met: pair.ratio ? !ignored : undefined,
    why: ignored
      ? `the list frames exceeded what a ${rateMs} ms rate allows: the rate was ignored`
      : undefined,
  }
}

/** A REST row's rounds as numbers for same-round ratios, flagged rounds left out. */
function roundFigures(
  row: RestRow | undefined,
  pick: (round: RestRound) => number | undefined,
): Array<number | undefined> {
  return (row?.rounds ?? []).map((round) => (round.generatorBound ? undefined : pick(round)))
}

export function restRatio(a: RestRow | undefined, b: RestRow | undefined): RatioSpread | undefined {
  const rate = (round: RestRound): number => round.requestsPerSecond
  return sameRoundRatios(roundFigures(a, rate), roundFigures(b, rate))
}

export function restCpuRatio(a: RestRow | undefined, b: RestRow | undefined): RatioSpread | undefined {
  const cpu = (round: RestRound): number | undefined => round.cpuMicrosPerRequest
  return sameRoundRatios(roundFigures(a, cpu), roundFigures(b, cpu))
}

/** Why two REST rows made no same-round ratio. */
export function restNoRatio(a: RestRow | undefined, b: RestRow | undefined, names: [string, string]): string {
  const why = [a, b].map((row, index) => {
    if (!row) return `${names[index]} not measured`
    if (row.unavailable) return `${names[index]} skipped: ${row.unavailable}`
    if (!row.ok) return `${names[index]} failed: ${row.error ?? '-'}`
    const bound = (row.rounds ?? []).filter((round) => round.generatorBound)
    return bound.length > 0 ? `${names[index]}: ${bound.map((round) => round.generatorBound).join('; ')}` : ''
  })
  return why.filter(Boolean).join('; ') || 'no round measured both'
}

/** `target` ≥ `at` × `floor` in req/s, from same-round ratios. */
export function restThroughputCheck(
  target: { name: string; row: RestRow | undefined },
  floor: { name: string; row: RestRow | undefined },
  at: number,
  label: string,
  beside = '',
): TargetCheck {
  const ratio = restRatio(target.row, floor.row)
  const cpu = restCpuRatio(target.row, floor.row)
  return {
    area: 'REST',
    target: `${label}: req/s ≥ ${at}× ${floor.name}, same round`,
    measured: ratio
      ? `${n(target.row?.requestsPerSecond)} vs ${n(floor.row?.requestsPerSecond)} req/s (medians): ${spreadText(ratio)}; CPU per request ${n(target.row?.serverCpuMicrosPerRequest, 1)} vs ${n(floor.row?.serverCpuMicrosPerRequest, 1)} µs${cpu ? `, ${spreadText(cpu)}` : ''}${beside}`
      : `no ratio: ${restNoRatio(target.row, floor.row, [target.name, floor.name])}`,
    met: ratio ? ratio.median >= at : undefined,
    why:
      ratio && ratio.median < at
        ? `${floor.name}, the floor, ${n(floor.row?.serverCpuMicrosPerRequest, 1)} µs per request against ${n(target.row?.serverCpuMicrosPerRequest, 1)}`
        : !ratio && target.row?.serverCpuMicrosPerRequest && floor.row?.serverCpuMicrosPerRequest
          ? `no round where both filled their core, so no ratio; read beside it, CPU per request (medians): ${n(target.row.serverCpuMicrosPerRequest, 1)} vs ${n(floor.row.serverCpuMicrosPerRequest, 1)} µs`
          : undefined,
  }
}

function windowsOf(report: ProxiedContentionReport, target: string, condition: ContentionCondition) {
  const byRound: Array<ProxiedWindow | undefined> = []
  for (const window of report.windows)
    if (window.target === target && window.condition === condition) byRound[window.round] = window
  return byRound
}

/** Same-round ratio of one target's figure to another's (the gateway's to the floor's unless named), in one condition. */
function proxiedRatio(
  report: ProxiedContentionReport,
  condition: ContentionCondition,
  figure: (window: ProxiedWindow) => number | undefined,
  [target, against] = [PROXIED_GATEWAY, PROXIED_FLOOR],
) {
  // a window that completed nothing, or answered other than 2xx, enters no ratio
  const pick = (name: string) =>
    windowsOf(report, name, condition).map((w) =>
      w && w.requestsPerSecond > 0 && w.non2xx === 0 ? figure(w) : undefined,
    )
  return sameRoundRatios(pick(target), pick(against))
}

/** One-at-a-time overhead over the sandbox called directly in pairs with it: the median and each round's. */
function proxiedOverheadMs(
  report: ProxiedContentionReport,
  target: string,
  condition: ContentionCondition,
): { median: number; rounds: number[] } | undefined {
  const rounds: number[] = []
  for (const window of windowsOf(report, target, condition))
    if (window?.serialOverheadMs !== undefined) rounds.push(window.serialOverheadMs)
  return rounds.length === 0 ? undefined : { median: median(rounds), rounds }
}

const THROUGHPUT_TARGETS: Record<ContentionCondition, number> = { quiet: 0.95, busy: 0.8 }
const PROXIED_OVERHEAD_TARGET_MS = 0.15

/** The issue's three targets for the proxied call, judged from same-round pairs of this phase. */
export function proxiedContentionChecks(report: ProxiedContentionReport | undefined): TargetCheck[] {
  const checks: TargetCheck[] = CONTENTION_CONDITIONS.map((condition) => {
    const target = `proxied call ${condition === 'busy' ? `beside ${report?.busyLoops ?? 2} busy loops (one a core)` : 'quiet'}: req/s ≥ ${THROUGHPUT_TARGETS[condition]}× bare node proxy, same round`
    const ratio = report && proxiedRatio(report, condition, (w) => w.requestsPerSecond)
    const cpu = report && proxiedRatio(report, condition, (w) => w.cpuMicrosPerRequest)
    const upstream = report && proxiedRatio(report, condition, (w) => w.upstreamCpuMicrosPerRequest)
    const rps = (w: ProxiedWindow) => w.requestsPerSecond
    // the framework's own floor: how near the bare node proxy Fastify itself comes, and the gateway to it
    const fastifyFloor =
      report && proxiedRatio(report, condition, rps, [PROXIED_FASTIFY_FLOOR, PROXIED_FLOOR])
    const overFastify =
      report && proxiedRatio(report, condition, rps, [PROXIED_GATEWAY, PROXIED_FASTIFY_FLOOR])
    if (!ratio) return { area: 'REST', target, measured: 'not measured', met: undefined }
    return {
      area: 'REST',
      target,
      measured: `${spreadText(ratio)}; CPU per request ${cpu ? spreadText(cpu) : '-'}; the upstream's CPU per request ${upstream ? spreadText(upstream) : '-'}`,
      met: ratio.median >= THROUGHPUT_TARGETS[condition],
      why:
        ratio.median >= THROUGHPUT_TARGETS[condition]
          ? undefined
          : `the floor, ${PROXIED_FLOOR}, measured beside it in the same rounds; ${PROXIED_FASTIFY_FLOOR} (the same trip from one bare Fastify route) reaches ${fastifyFloor ? spreadText(fastifyFloor) : '-'} of it, and the gateway ${overFastify ? spreadText(overFastify) : '-'} of ${PROXIED_FASTIFY_FLOOR}`,
    }
  })
  const overhead = report && proxiedOverheadMs(report, PROXIED_GATEWAY, 'quiet')
  const floorOverhead = report && proxiedOverheadMs(report, PROXIED_FLOOR, 'quiet')
  const fastifyOverhead = report && proxiedOverheadMs(report, PROXIED_FASTIFY_FLOOR, 'quiet')
  checks.push({
    area: 'REST',
    target: `proxied call quiet: p50 overhead ≤ ${PROXIED_OVERHEAD_TARGET_MS} ms over the sandbox called directly (one request at a time, each paired with a direct one)`,
    measured: overhead
      ? `${n(overhead.median, 3)} ms (rounds ${overhead.rounds.map((ms) => n(ms, 3)).join(', ')}); ${PROXIED_FLOOR} ${n(floorOverhead?.median, 3)} ms`
      : 'not measured',
    met: overhead ? overhead.median <= PROXIED_OVERHEAD_TARGET_MS : undefined,
    why:
      overhead && overhead.median > PROXIED_OVERHEAD_TARGET_MS
        ? `the floor, ${PROXIED_FLOOR}, adds ${n(floorOverhead?.median, 3)} ms; ${PROXIED_FASTIFY_FLOOR} adds ${n(fastifyOverhead?.median, 3)} ms`
        : undefined,
  })
  return checks
}
