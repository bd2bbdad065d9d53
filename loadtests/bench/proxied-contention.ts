/**
 * The proxied call quiet and beside busy loops, in one run: the gateway, the bare node:http + undici
 * proxy and the same proxy from one bare Fastify route in front of one sandbox, each round measuring both targets quiet, then both again while one busy
 * loop holds each core (as a loaded CI machine or a noisy neighbour would), so a contention the gateway
 * takes worse than the floor shows as a same-round ratio. Each window is a REST window (rest-rounds.ts)
 * with the sandbox's CPU read beside, and one-at-a-time latency after it, each request paired with one
 * to the sandbox called directly for the overhead. Its targets are judged in same-round.ts.
 */
import type { ChildProcess } from 'node:child_process'
import os from 'node:os'
import { spawnOwned, stopOwned } from '../../gateway/test/support/owned-processes'
import { errorText, pinnedCommand } from './child-process'
import { formatNumber as n } from './report-format'
import { measureRestWindow, restRound } from './rest-rounds'
import {
  PROXIED_FASTIFY_FLOOR,
  PROXIED_FLOOR,
  PROXIED_GATEWAY,
  restTarget,
  withSandbox,
  type Cores,
} from './rest-targets'
import { CONTENTION_CONDITIONS } from './types'
import type { BenchOptions, ContentionCondition, ProxiedContentionReport } from './types'

/** One `node -e 'for (;;) {}'` per core, each pinned to its core, so every target meets the same contention. */
function startBusyLoops(cores: number): ChildProcess[] {
  return Array.from({ length: cores }, (_, core) => {
    const loop = pinnedCommand(String(core), process.execPath, ['-e', 'for (;;) {}'])
    return spawnOwned(loop.command, loop.args, { stdio: 'ignore' })
  })
}

/**
 * On a sandbox of its own, round after round: quiet, then beside the busy loops; in each condition the
 * two floors, then the gateway, each timed one request at a time in pairs with the sandbox called directly.
 */
export async function runProxiedContention(
  cores: Cores,
  options: Pick<BenchOptions, 'installMissing' | 'proxied'>,
  log: (line: string) => void,
): Promise<ProxiedContentionReport> {
  const { proxied } = options
  log(
    `proxied: ${PROXIED_FLOOR}, ${PROXIED_FASTIFY_FLOOR} and ${PROXIED_GATEWAY}, quiet and beside one busy loop a core, ${proxied.rounds} rounds`,
  )
  // every core of the machine: this process sees only its own once pinned
  const busyLoops = os.cpus().length
  const report: ProxiedContentionReport = {
    ok: false,
    options: proxied,
    busyLoops,
    windows: [],
  }
  return withSandbox(cores, options, async (ctx) => {
    const sandbox = await ctx.sandbox()
    // the warm-up long enough for the JIT to settle: a fresh gateway has far more code to optimise
    const plan = { ...proxied, sampleAnswer: false, upstreamPid: sandbox.process.pid }
    // The loops start once the target is warm: a gateway under a noisy neighbour has long been running,
    // and a fresh one warming up on a starved core measured its JIT's start, not the contention (its
    // CPU per request fell from over 1,000 µs in its first second to about 300 after ten).
    const busy = () => {
      const loops = startBusyLoops(busyLoops)
      return async () => {
        for (const loop of loops) await stopOwned(loop)
      }
    }
    const measure = async (name: string, round: number, condition: ContentionCondition) => {
      const during = condition === 'busy' ? busy : undefined
      // the row logs a line of its own for each window
      const window = await measureRestWindow(restTarget(name), ctx, { ...plan, during }, () => undefined)
      if ('unavailable' in window) throw new Error(`${name}: ${window.unavailable}`)
      const { requestsPerSecond, cpuMicrosPerRequest, targetCpuPercent } = restRound(window)
      const upstream = window.upstreamCpuMicros
      return {
        round,
        condition,
        target: name,
        requestsPerSecond,
        non2xx: window.non2xx,
        errors: window.errors,
        latencyMs: { p50: window.latencyMs.p50, p99: window.latencyMs.p99 },
        cpuMicrosPerRequest,
        upstreamCpuMicrosPerRequest:
          upstream === undefined || !window.requests ? undefined : upstream / window.requests,
        targetCpuPercent,
        serialP50Ms: window.serialLatencyMs?.p50,
        directSerialP50Ms: window.serialLatencyMs?.direct?.p50,
        serialOverheadMs: window.serialLatencyMs?.overheadP50,
        loadAverage: os.loadavg()[0]!,
      }
    }
    try {
      for (let round = 0; round < proxied.rounds; round++) {
        for (const condition of CONTENTION_CONDITIONS) {
          for (const name of [PROXIED_FLOOR, PROXIED_FASTIFY_FLOOR, PROXIED_GATEWAY]) {
            const window = await measure(name, round, condition)
            report.windows.push(window)
            log(
              `  proxied ${condition}, round ${round + 1}: ${name} ${n(window.requestsPerSecond)} req/s, ${n(window.cpuMicrosPerRequest, 1)} µs CPU/req, upstream ${n(window.upstreamCpuMicrosPerRequest, 1)} µs/req, one at a time p50 ${n(window.serialP50Ms, 3)} ms, over direct ${n(window.serialOverheadMs, 3)} ms, load ${window.loadAverage.toFixed(1)}`,
            )
          }
        }
      }
      report.ok = report.windows.every((window) => window.requestsPerSecond > 0 && window.non2xx === 0)
      if (!report.ok) report.error = 'a window completed no request, or answered other than 2xx'
    } catch (error) {
      report.error = errorText(error)
    }
    return report
  })
}
