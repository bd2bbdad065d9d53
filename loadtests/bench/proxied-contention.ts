/**
 * The proxied call quiet and beside busy loops, in one run: the gateway and the bare node:http + undici
 * proxy in front of one sandbox, each round measuring both targets quiet, then both again while one busy
 * loop holds each core (as a loaded CI machine or a noisy neighbour would), so a contention the gateway
 * takes worse than the floor shows as a same-round ratio. Per window: wrk's req/s and latency, the
 * target's and the upstream's CPU per request, and one-at-a-time latency, beside the sandbox called
 * directly in the same condition for the overhead.
 */
import type { ChildProcess } from 'node:child_process'
import os from 'node:os'
import { spawnOwned, stopOwned } from '../../gateway/test/support/owned-processes'
import { pinnedCommand } from './child-process'
import { sameRoundRatios } from './generator-bound'
import { median } from './percentiles'
import { readCpuMicros } from './proc-stats'
import { formatNumber as n } from './report-format'
import type { RestTarget, RestTargetContext } from './rest-targets'
import { uncachedRequest } from './rest-targets'
import { spreadText, type TargetCheck } from './same-round'
import { measureSerialLatency } from './serial-latency'
import type {
  ContentionCondition,
  ProxiedContentionOptions,
  ProxiedContentionReport,
  ProxiedWindow,
} from './types'
import { runWrk } from './wrk'

export const PROXIED_GATEWAY = 'gateway proxy (uncached)'
export const PROXIED_FLOOR = 'bare node proxy'
export const CONTENTION_CONDITIONS: readonly ContentionCondition[] = ['quiet', 'busy']

/** One `node -e 'for (;;) {}'` per core, each pinned to its core, so every target meets the same contention. */
function startBusyLoops(cores: number): ChildProcess[] {
  return Array.from({ length: cores }, (_, core) => {
    const loop = pinnedCommand(String(core), process.execPath, ['-e', 'for (;;) {}'])
    return spawnOwned(loop.command, loop.args, { stdio: 'ignore' })
  })
}

async function measureTarget(
  target: RestTarget,
  ctx: RestTargetContext,
  options: ProxiedContentionOptions,
  at: { round: number; condition: ContentionCondition; sandboxPid: number },
): Promise<ProxiedWindow> {
  const started = await target.start(ctx)
  if ('unavailable' in started) throw new Error(`${target.name}: ${started.unavailable}`)
  try {
    const base = { url: started.url, request: uncachedRequest, connections: options.connections }
    // long enough for the JIT to settle on a starved core too: a fresh gateway has far more code to
    // optimise than the bare proxy, and its compiler threads share the starved core
    await runWrk({ ...base, seconds: options.warmupSeconds })
    const upstreamBefore = readCpuMicros(at.sandboxPid)
    let run = await runWrk({ ...base, seconds: options.seconds, targetPid: started.pid })
    // a starved target's first answers can come after a short run ends: run again, up to three times
    for (let retry = 0; run.requests === 0 && retry < 3; retry++)
      run = await runWrk({ ...base, seconds: options.seconds, targetPid: started.pid })
    const upstreamAfter = readCpuMicros(at.sandboxPid)
    const serial = await measureSerialLatency(started.url, uncachedRequest, options.serialRequests)
    const perRequest = (micros: number | undefined) =>
      micros === undefined || run.requests === 0 ? undefined : micros / run.requests
    return {
      round: at.round,
      condition: at.condition,
      target: target.name,
      requestsPerSecond: run.seconds > 0 ? run.requests / run.seconds : 0,
      non2xx: run.non2xx,
      errors: run.errors,
      latencyMs: { p50: run.latencyMs.p50, p99: run.latencyMs.p99 },
      cpuMicrosPerRequest: perRequest(run.targetCpuMicros),
      upstreamCpuMicrosPerRequest: perRequest(
        upstreamBefore === undefined || upstreamAfter === undefined
          ? undefined
          : upstreamAfter - upstreamBefore,
      ),
      targetCpuPercent:
        run.targetCpuMicros === undefined ? undefined : run.targetCpuMicros / 1e4 / run.cpuSeconds,
      serialP50Ms: serial.p50,
      loadAverage: os.loadavg()[0]!,
    }
  } finally {
    await started.stop()
  }
}

/**
 * Round after round: quiet, then beside the busy loops; in each condition the floor, then the gateway,
 * then the sandbox alone one request at a time. `targets` are the REST registry's two proxies.
 */
export async function runProxiedContention(
  targets: { gateway: RestTarget; floor: RestTarget },
  ctx: RestTargetContext,
  options: ProxiedContentionOptions,
  log: (line: string) => void,
): Promise<ProxiedContentionReport> {
  // every core of the machine: this process sees only its own once pinned
  const cores = os.cpus().length
  const report: ProxiedContentionReport = {
    ok: false,
    options,
    busyLoops: cores,
    windows: [],
    directSerialP50Ms: [],
  }
  const sandbox = await ctx.sandbox()
  try {
    for (let round = 0; round < options.rounds; round++) {
      const direct: Record<ContentionCondition, number | undefined> = { quiet: undefined, busy: undefined }
      report.directSerialP50Ms.push(direct)
      for (const condition of CONTENTION_CONDITIONS) {
        const loops = condition === 'busy' ? startBusyLoops(cores) : []
        try {
          for (const target of [targets.floor, targets.gateway]) {
            const window = await measureTarget(target, ctx, options, {
              round,
              condition,
              sandboxPid: sandbox.process.pid,
            })
            report.windows.push(window)
            log(
              `  proxied ${condition}, round ${round + 1}: ${target.name} ${n(window.requestsPerSecond)} req/s, ${n(window.cpuMicrosPerRequest, 1)} µs CPU/req, upstream ${n(window.upstreamCpuMicrosPerRequest, 1)} µs/req, one at a time p50 ${n(window.serialP50Ms, 3)} ms, load ${window.loadAverage.toFixed(1)}`,
            )
          }
          direct[condition] = (
            await measureSerialLatency(sandbox.url, uncachedRequest, options.serialRequests)
          ).p50
        } finally {
          for (const loop of loops) await stopOwned(loop)
        }
      }
    }
    report.ok = report.windows.every((window) => window.requestsPerSecond > 0 && window.non2xx === 0)
    if (!report.ok) report.error = 'a window completed no request, or answered other than 2xx'
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error)
  }
  return report
}

function windowsOf(report: ProxiedContentionReport, target: string, condition: ContentionCondition) {
  const byRound: Array<ProxiedWindow | undefined> = []
  for (const window of report.windows)
    if (window.target === target && window.condition === condition) byRound[window.round] = window
  return byRound
}

/** Same-round ratio of the gateway's figure to the floor's, in one condition. */
export function proxiedRatio(
  report: ProxiedContentionReport,
  condition: ContentionCondition,
  figure: (window: ProxiedWindow) => number | undefined,
) {
  // a window that completed nothing, or answered other than 2xx, enters no ratio
  const pick = (target: string) =>
    windowsOf(report, target, condition).map((w) =>
      w && w.requestsPerSecond > 0 && w.non2xx === 0 ? figure(w) : undefined,
    )
  return sameRoundRatios(pick(PROXIED_GATEWAY), pick(PROXIED_FLOOR))
}

/** One-at-a-time p50 over the sandbox called directly, same round and condition: the median and each round's. */
export function proxiedOverheadMs(
  report: ProxiedContentionReport,
  target: string,
  condition: ContentionCondition,
): { median: number; rounds: number[] } | undefined {
  const rounds: number[] = []
  windowsOf(report, target, condition).forEach((window, round) => {
    const direct = report.directSerialP50Ms[round]?.[condition]
    if (window?.serialP50Ms !== undefined && direct !== undefined) rounds.push(window.serialP50Ms - direct)
  })
  return rounds.length === 0 ? undefined : { median: median(rounds), rounds }
}

const THROUGHPUT_TARGETS: Record<ContentionCondition, number> = { quiet: 0.95, busy: 0.8 }
export const PROXIED_OVERHEAD_TARGET_MS = 0.15

/** The issue's three targets for the proxied call, judged from same-round pairs of this phase. */
export function proxiedContentionChecks(report: ProxiedContentionReport | undefined): TargetCheck[] {
  const checks: TargetCheck[] = CONTENTION_CONDITIONS.map((condition) => {
    const target = `proxied call ${condition === 'busy' ? `beside ${report?.busyLoops ?? 2} busy loops (one a core)` : 'quiet'}: req/s ≥ ${THROUGHPUT_TARGETS[condition]}× bare node proxy, same round`
    const ratio = report && proxiedRatio(report, condition, (w) => w.requestsPerSecond)
    const cpu = report && proxiedRatio(report, condition, (w) => w.cpuMicrosPerRequest)
    const upstream = report && proxiedRatio(report, condition, (w) => w.upstreamCpuMicrosPerRequest)
    if (!ratio) return { area: 'REST', target, measured: 'not measured', met: undefined }
    return {
      area: 'REST',
      target,
      measured: `${spreadText(ratio)}; CPU per request ${cpu ? spreadText(cpu) : '-'}; the upstream's CPU per request ${upstream ? spreadText(upstream) : '-'}`,
      met: ratio.median >= THROUGHPUT_TARGETS[condition],
      why:
        ratio.median >= THROUGHPUT_TARGETS[condition]
          ? undefined
          : `the floor, ${PROXIED_FLOOR}, measured beside it in the same rounds`,
    }
  })
  const overhead = report && proxiedOverheadMs(report, PROXIED_GATEWAY, 'quiet')
  const floorOverhead = report && proxiedOverheadMs(report, PROXIED_FLOOR, 'quiet')
  checks.push({
    area: 'REST',
    target: `proxied call quiet: p50 overhead ≤ ${PROXIED_OVERHEAD_TARGET_MS} ms over the sandbox called directly (one request at a time, same round)`,
    measured: overhead
      ? `${n(overhead.median, 3)} ms (rounds ${overhead.rounds.map((ms) => n(ms, 3)).join(', ')}); ${PROXIED_FLOOR} ${n(floorOverhead?.median, 3)} ms`
      : 'not measured',
    met: overhead ? overhead.median <= PROXIED_OVERHEAD_TARGET_MS : undefined,
    why:
      overhead && overhead.median > PROXIED_OVERHEAD_TARGET_MS
        ? `the floor, ${PROXIED_FLOOR}, adds ${n(floorOverhead?.median, 3)} ms`
        : undefined,
  })
  return checks
}
