/**
 * The REST load generator: Debian's wrk, one thread on the generator's core (it inherits the
 * harness's pinning). A native client costs a few microseconds per request, so it keeps room to
 * spare where a Node client would be the first to run out of its core. Its own CPU is read by the
 * shell that runs it (`times`), the target's from /proc, both over the same span.
 */
import { rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ownTempDir, spawnOwned } from '../../gateway/test/support/owned-processes'
import { ensureDebianTool } from './nginx'
import { cpuSince } from './proc-stats'
import type { RestRequest } from './rest-targets'

export const WRK_BINARY = '/usr/bin/wrk'

export function ensureWrk(install: boolean): { ok: true } | { ok: false; reason: string } {
  return ensureDebianTool(WRK_BINARY, 'wrk', install)
}

export interface LoadRun {
  /** Wall time of the run, seconds (wrk's own measured span). */
  seconds: number
  requests: number
  non2xx: number
  errors: number
  /** ms */
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number }
  /** The generator's CPU over the run (µs). */
  generatorCpuMicros: number | undefined
  /** The target's CPU over the run (µs), when a pid was given. */
  targetCpuMicros: number | undefined
  /** The span the two CPU figures were read over, seconds. */
  cpuSeconds: number
}

/** A long-bracket Lua string that cannot be closed by the text inside it. */
function luaString(text: string): string {
  let level = ''
  while (text.includes(`]${level}]`)) level += '='
  // a newline right after the opening bracket is dropped by Lua, so lead with one of our own
  return `[${level}[\n${text}]${level}]`
}

/** The wrk script: the request, and one JSON line of figures when the run is done. */
export function wrkScript(request: RestRequest): string {
  const headers = Object.entries(request.headers ?? {})
    .map(([name, value]) => `wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`)
    .join('\n')
  return `wrk.method = ${luaString(request.method)}
${request.body === undefined ? '' : `wrk.body = ${luaString(request.body)}`}
${headers}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK-RESULT {"requests":%d,"duration_us":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
end
`
}

interface WrkFigures {
  requests: number
  duration_us: number
  status: number
  connect: number
  read: number
  write: number
  timeout: number
  p50: number
  p90: number
  p99: number
  p999: number
  max: number
}

/** The children's user and system time from bash's `times` (its second line), in µs. */
export function parseTimes(output: string): number | undefined {
  const lines = output.trim().split('\n')
  const children = lines.at(-1)?.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/)
  if (!children || lines.length < 2) return undefined
  const [, um, us, sm, ss] = children
  return ((Number(um) + Number(sm)) * 60 + Number(us) + Number(ss)) * 1e6
}

export function parseWrkResult(stdout: string): WrkFigures | undefined {
  const line = stdout.split('\n').find((candidate) => candidate.startsWith('WRK-RESULT '))
  return line ? (JSON.parse(line.slice('WRK-RESULT '.length)) as WrkFigures) : undefined
}

/**
 * Runs wrk against `url + request.path` with `connections` for `seconds`, one thread, and reads
 * its CPU and the target's over the same span.
 */
export async function runWrk(options: {
  url: string
  request: RestRequest
  connections: number
  seconds: number
  targetPid?: number
}): Promise<LoadRun> {
  const dir = ownTempDir('loadtests-wrk-')
  try {
    const script = path.join(dir, 'request.lua')
    await writeFile(script, wrkScript(options.request))
    const args = [
      '-c',
      // `times` prints the shell's own times, then its children's: wrk's
      'wrk "$@"; code=$?; times >&2; exit $code',
      'wrk',
      '-t1',
      `-c${options.connections}`,
      `-d${Math.max(1, Math.round(options.seconds))}s`,
      '--timeout',
      '5s',
      '-s',
      script,
      options.url + options.request.path,
    ]
    const targetCpu = cpuSince(options.targetPid)
    const began = performance.now()
    const { code, stdout, stderr } = await new Promise<{
      code: number | null
      stdout: string
      stderr: string
    }>((resolve, reject) => {
      const child = spawnOwned('bash', args, { stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
      child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
      child.once('error', reject)
      child.once('close', (exitCode) => resolve({ code: exitCode, stdout: out, stderr: err }))
    })
    const cpuSeconds = (performance.now() - began) / 1000
    const targetCpuMicros = targetCpu()
    const figures = parseWrkResult(stdout)
    if (code !== 0 || !figures)
      throw new Error(`wrk failed (exit ${code}): ${stderr.slice(-1000)} ${stdout.slice(-1000)}`)
    return {
      seconds: figures.duration_us / 1e6,
      requests: figures.requests,
      non2xx: figures.status,
      errors: figures.connect + figures.read + figures.write + figures.timeout,
      latencyMs: {
        p50: figures.p50 / 1000,
        p90: figures.p90 / 1000,
        p99: figures.p99 / 1000,
        p999: figures.p999 / 1000,
        max: figures.max / 1000,
      },
      generatorCpuMicros: parseTimes(stderr),
      targetCpuMicros,
      cpuSeconds,
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
