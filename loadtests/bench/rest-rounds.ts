/**
 * The REST rounds: every target in turn, round after round, each started fresh, warmed up and measured
 * by wrk, then stopped; a target's rounds combined into its row. The bench's REST phase and the A/B
 * of gateway builds (rest-ab.ts) both run them.
 */
import { request as undiciRequest } from 'undici'
import { errorText } from './child-process'
import { cpuPercent, generatorBound } from './generator-bound'
import { median } from './percentiles'
import { cpuSince } from './proc-stats'
import type { RestRequest, RestTarget, RestTargetContext } from './rest-targets'
import { combineSerialLatency, measureSerialLatency } from './serial-latency'
import type { BenchOptions, RestRound, RestRow, RestWindow, RestWindowLoad } from './types'
import { runWrk, type LoadRun } from './wrk'

export type RestRoundOptions = Pick<
  BenchOptions,
  'warmupMs' | 'restSeconds' | 'restRounds' | 'restConnections' | 'serialRequests'
>

/** One answer's body as the server sent it (undici does not decompress) and its content-encoding. */
async function sampleAnswer(url: string, request: RestRequest): Promise<RestRow['answer']> {
  const response = await undiciRequest(url + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  })
  const bytes = (await response.body.arrayBuffer()).byteLength
  const encoding = response.headers['content-encoding']
  return { bytes, encoding: (Array.isArray(encoding) ? encoding[0] : encoding) ?? 'identity' }
}

/** How one window of a target runs, and what is read after it besides. */
export interface RestWindowPlan extends RestWindowLoad {
  /** read one answer's bytes and encoding after the run */
  sampleAnswer: boolean
  /** a process whose CPU over the measured run is read too: the target's upstream */
  upstreamPid?: number
  /**
   * A condition the target is measured in (busy loops), begun once it is warm and ended after its
   * window: what the returned function does.
   */
  during?: () => () => Promise<void>
}

/**
 * One window: the target started fresh, warmed up by an unmeasured run, measured by wrk, stopped. Also
 * the proxied row's (proxied-contention.ts), with its own plan.
 */
export async function measureRestWindow(
  target: RestTarget,
  ctx: RestTargetContext,
  plan: RestWindowPlan,
  log: (line: string) => void,
): Promise<RestWindow | { unavailable: string }> {
  const begin = performance.now()
  const started = await target.start(ctx)
  if ('unavailable' in started) return started
  log(`  ${target.name}: started in ${Math.round(performance.now() - begin)} ms`)
  let endCondition: (() => Promise<void>) | undefined
  try {
    const { request } = started
    const base = { url: started.url, request, connections: plan.connections }
    // A run that completed no request at all is no measurement: on a busy machine a fresh target's
    // first answers can come after a one-second quick run ends, and every unanswered run leaves its
    // requests queued in front of the next. So a run is repeated, each time twice as long, until it
    // completes one (up to three times, counted, so a target that never answers still fails its row).
    const runUntilAnswered = async (
      what: string,
      seconds: number,
      targetPid?: number,
    ): Promise<LoadRun & { upstreamCpuMicros: number | undefined }> => {
      const attempt = async (span: number) => {
        // the upstream's CPU over the same attempt as the target's
        const upstreamCpu = cpuSince(plan.upstreamPid)
        const run = await runWrk({ ...base, seconds: span, targetPid })
        return { ...run, upstreamCpuMicros: upstreamCpu() }
      }
      const first = Math.max(1, seconds)
      let run = await attempt(first)
      for (let retry = 1; run.requests === 0 && retry <= 3; retry++) {
        log(
          `  ${target.name}: ${what} completed no request in ${run.seconds.toFixed(1)} s, run again for ${first * 2 ** retry} s`,
        )
        run = await attempt(first * 2 ** retry)
      }
      return run
    }
    // An unmeasured run first, long enough for the JIT to settle: each round starts a fresh process,
    // and a fixed request count would leave the server with the most code least optimised.
    const warmUp = await runUntilAnswered('the warm-up', plan.warmupSeconds, started.pid)
    endCondition = plan.during?.()
    // a target that answered nothing in all that time is not measured again: its row fails on the count
    const { upstreamCpuMicros, ...run } =
      warmUp.requests === 0 ? warmUp : await runUntilAnswered('the measured run', plan.seconds, started.pid)
    const generatorCpuPercent = cpuPercent(run.generatorCpuMicros, run.cpuSeconds)
    const targetCpuPercent = cpuPercent(run.targetCpuMicros, run.cpuSeconds)
    const bound = generatorBound({ generatorCpuPercent, targetCpuPercent, atCapacity: true })
    log(
      `  ${target.name}: ${Math.round(run.requests / run.seconds)} req/s, generator ${Math.round(generatorCpuPercent ?? Number.NaN)}%, target ${Math.round(targetCpuPercent ?? Number.NaN)}%${bound ? ` (generator-bound: ${bound})` : ''}`,
    )
    const serialLatencyMs =
      plan.serialRequests > 0
        ? await measureSerialLatency(started.url, request, plan.serialRequests, started.upstreamUrl)
        : undefined
    return {
      ...run,
      pinned: started.pinned,
      cpuMicros: run.targetCpuMicros,
      upstreamCpuMicros,
      generatorCpuPercent,
      targetCpuPercent,
      ...(bound ? { generatorBound: bound } : {}),
      serialLatencyMs,
      answer: plan.sampleAnswer ? await sampleAnswer(started.url, request) : undefined,
    }
  } finally {
    await endCondition?.()
    await started.stop()
  }
}

/** One window's rate, CPU per request and both sides' CPU. */
export function restRound(window: RestWindow): RestRound {
  return {
    requestsPerSecond: window.seconds > 0 ? window.requests / window.seconds : 0,
    cpuMicrosPerRequest:
      window.cpuMicros !== undefined && window.requests > 0 ? window.cpuMicros / window.requests : undefined,
    generatorCpuPercent: window.generatorCpuPercent,
    targetCpuPercent: window.targetCpuPercent,
    ...(window.generatorBound ? { generatorBound: window.generatorBound } : {}),
  }
}

/**
 * A target's rounds: each round's req/s and CPU per request kept (same-round ratios are taken from
 * them), the row's figures the median round's with the range beside; latency percentiles the
 * median round's.
 */
export function combineRestWindows(row: RestRow, windows: RestWindow[]): RestRow {
  const requests = windows.reduce((sum, window) => sum + window.requests, 0)
  const non2xx = windows.reduce((sum, window) => sum + window.non2xx, 0)
  const errors = windows.reduce((sum, window) => sum + window.errors, 0)
  const rounds = windows.map(restRound)
  const latency = (key: keyof RestWindow['latencyMs']): number =>
    median(windows.map((window) => window.latencyMs[key]))
  const cpu = rounds.every((round) => round.cpuMicrosPerRequest !== undefined)
    ? median(rounds.map((round) => round.cpuMicrosPerRequest!))
    : undefined
  const ok = requests > 0 && non2xx === 0
  return {
    ...row,
    ok,
    pinned: windows.every((window) => window.pinned),
    requestsPerSecond: median(rounds.map((round) => round.requestsPerSecond)),
    roundsPerSecond: rounds.map((round) => round.requestsPerSecond),
    rounds,
    latencyMs: {
      p50: latency('p50'),
      p90: latency('p90'),
      p99: latency('p99'),
      p999: latency('p999'),
      max: latency('max'),
    },
    errors,
    non2xx,
    serverCpuMicrosPerRequest: cpu,
    serialLatencyMs: combineSerialLatency(windows.flatMap((window) => window.serialLatencyMs ?? [])),
    answer: windows.find((window) => window.answer)?.answer,
    ...(ok ? {} : { error: `${requests} requests, ${non2xx} not 2xx, ${errors} errors` }),
  }
}

/**
 * Every target in turn, round after round, so a slow spell of a shared machine lands on all of them
 * alike instead of on whichever target happened to be measured then.
 */
export async function runRestRounds(
  targets: RestTarget[],
  ctx: RestTargetContext,
  options: RestRoundOptions,
  log: (line: string) => void,
): Promise<RestRow[]> {
  const windows = new Map<string, RestWindow[]>()
  const rows = new Map<string, RestRow>(
    targets.map((target) => [target.name, { target: target.name, note: target.note, ok: false }]),
  )
  // one-at-a-time latency in every round, its requests shared out, and the answer's bytes in the first
  const plan = (first: boolean): RestWindowPlan => ({
    warmupSeconds: options.warmupMs / 1000,
    seconds: options.restSeconds / options.restRounds,
    connections: options.restConnections,
    serialRequests: Math.ceil(options.serialRequests / options.restRounds),
    sampleAnswer: first,
  })
  for (let round = 0; round < options.restRounds; round++) {
    log(`rest: round ${round + 1} of ${options.restRounds}`)
    for (const target of targets) {
      const row = rows.get(target.name)!
      if (row.unavailable || row.error) continue
      try {
        const window = await measureRestWindow(target, ctx, plan(round === 0), log)
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
