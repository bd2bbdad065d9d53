import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BenchResult, SocketWindow } from './types'
import { socketSystems } from './socket-systems'
import { ROUND_SYSTEMS } from './rounds'
import { FED_IDLE_SYSTEMS } from './fed-idle'
import { restTargets } from './rest-targets'
import { loadtestsDir } from './child-process'
import { ensureGatewayBundle } from './gateway-processes'
import { buildNativeGenerator } from './native-client'
import { generatorBound } from './generator-bound'
import { selected } from './main'

const run = promisify(execFile)

/** A quick bench run with these flags (its RESULTS.md checked to have rendered): its JSON and stdout. */
async function quickBench(flags: string[]): Promise<{ result: BenchResult; stdout: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'loadtests-smoke-'))
  const outFile = path.join(dir, 'bench.json')
  const resultsMd = path.join(dir, 'RESULTS.md')
  try {
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/main.ts',
        '--quick',
        '--no-install',
        '--out',
        outFile,
        '--results-md',
        resultsMd,
        ...flags,
      ],
      { cwd: loadtestsDir, timeout: 1_000_000, maxBuffer: 10 * 2 ** 20 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      // a system that failed still writes its row; the assertions say which
      if (!error.stdout?.includes('wrote')) throw error
      return { stdout: error.stdout }
    })
    const result = JSON.parse(await readFile(outFile, 'utf8')) as BenchResult
    const markdown = await readFile(resultsMd, 'utf8')
    expect(markdown).toContain('## Targets')
    expect(markdown).toContain('## Analysis')
    expect(markdown).toContain(result.runId)
    return { result, stdout }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Every socket window carries the generator-bound flag the rule gives its own two CPUs. */
function expectFlaggedByTheRule(windows: readonly SocketWindow[]): void {
  for (const window of windows)
    expect(window.generatorBound).toBe(
      generatorBound({
        generatorCpuPercent: window.clientCpuPercent,
        targetCpuPercent: window.serverCpuPercent,
        atCapacity: false,
      }),
    )
}

// Checks that every registered system, target and row runs and produces figures, and that RESULTS.md
// renders from them; the figures themselves depend on the machine and are never asserted. The four
// runs are independent parts of the harness (--phases), so they run side by side: the bench's own
// windows are wall-clock bound, and one after another they were most of the loadtests tier's time.
const ramped = socketSystems.filter((system) => !system.roundsOnly).map((system) => system.name)
/** The ramped systems in two runs of about the same length (Socket.IO's drains make it the slowest). */
const SOCKET_GROUPS = [
  { name: 'the gateways and the bare ws baselines', systems: ['gateway', 'bare ws'] },
  { name: 'the Socket.IO baselines', systems: ['socket.io'] },
]

describe.concurrent('the quick harness', () => {
  // the runs need the same two builds: made once, before any starts
  beforeAll(() => {
    ensureGatewayBundle()
    buildNativeGenerator()
  }, 300_000)

  it('ramps every registered socket system in one of the two groups', () => {
    expect(ramped.filter((name) => !SOCKET_GROUPS.some((group) => selected(name, group.systems)))).toEqual([])
  })

  it.for(SOCKET_GROUPS)(
    'ramps $name, with storms, and renders RESULTS.md',
    { timeout: 1_020_000 },
    async (group) => {
      const { result, stdout } = await quickBench([
        '--phases',
        'sockets',
        '--systems',
        group.systems.join(','),
      ])
      const systems = ramped.filter((name) => selected(name, group.systems))
      expect(result.socket.map((row) => row.system)).toEqual(systems)
      for (const row of result.socket) {
        expect(row, row.error).toMatchObject({ ok: true })
        expect(row.window!.offeredPerSecond).toBeGreaterThan(0)
        expect(row.window!.serverCpuPercent).toBeGreaterThan(0)
        expect(row.connect!.opened, row.system).toBe(row.clients)
        expect(stdout).toContain(row.system)
      }
      expect(result.capacity.map((report) => report.system)).toEqual(systems)
      for (const report of result.capacity) {
        expect(report.error, report.system).toBeUndefined()
        expect(report.steps.length, report.system).toBeGreaterThan(0)
        expect(report.half!.offeredPerSecond, report.system).toBeGreaterThan(0)
        expect(report.half!.deliveredPerSecond, report.system).toBeGreaterThan(0)
        expect(report.storm, report.system).toMatchObject({
          sockets: report.clients,
          failed: 0,
          missing: 0,
        })
      }
      // every later system is also measured at the rates the first one held, up to one it cannot hold
      const [reference, ...others] = result.capacity
      const referenceScales = [
        ...reference!.steps.filter((step) => step.held).map((step) => step.rateScale),
        ...(reference!.half?.held ? [reference!.half.rateScale] : []),
      ]
      for (const report of others) {
        const windows = [...report.steps, report.half!, ...(report.atReferenceRates ?? [])]
        if (report.atReferenceRates?.some((window) => !window.held)) continue
        const scales = new Set(windows.map((window) => window.rateScale))
        for (const scale of referenceScales)
          expect(scales.has(scale), `${report.system} at ×${scale}`).toBe(true)
      }
      const lists = result.capacity.find((report) => report.system.includes('lists at 1000 ms'))
      if (selected('gateway (memory bus), lists at 1000 ms', group.systems))
        expect(lists!.steps[0]!.rated!.deliveredPerSecond).toBeGreaterThan(0)
      const redisGateway = result.capacity.find((report) => report.system === 'gateway (redis bus)')
      if (selected('gateway (redis bus)', group.systems)) {
        expect(redisGateway!.storm!.bus!.channels).toBeGreaterThan(0)
        // the gateway reports its heap, read beside RSS per socket
        expect(typeof redisGateway!.half!.heapPerConnectionKb).toBe('number')
        expect(redisGateway!.stormFixed).toMatchObject({
          sockets: redisGateway!.clients,
          failed: 0,
          missing: 0,
        })
      }
      // the generator-bound rule is applied to every ramp window, from that window's own two CPUs
      expectFlaggedByTheRule(result.capacity.flatMap((report) => [...report.steps, report.half!]))
    },
  )

  it('runs the interleaved rounds, the fed idle starts, every REST target and the hostile row, and renders RESULTS.md', async () => {
    const { result } = await quickBench(['--phases', 'rounds,idle,rest'])
    // the interleaved rounds: every compared system at every rate, its windows carrying both CPUs
    expect(result.rounds!.systems.map((entry) => entry.system)).toEqual([...ROUND_SYSTEMS])
    for (const entry of result.rounds!.systems) {
      expect(entry.errors, entry.system).toEqual([])
      // each round's fresh start reads its idle process, the ramp's reading beside them
      expect(entry.idleRssMb, entry.system).toHaveLength(result.options.socketRounds)
      for (const rss of entry.idleRssMb!) expect(rss, entry.system).toBeGreaterThan(20)
      for (const windows of entry.windows) {
        expect(windows, entry.system).toHaveLength(result.options.socketRounds)
        for (const window of windows) {
          expect(window!.serverCpuPercent, entry.system).toBeGreaterThan(0)
          expect(window!.sockets, entry.system).toBe(result.rounds!.clients)
        }
      }
    }

    // each idle start ran on a ticking feed: frames published, the server's CPU spent on them
    expect(result.fedIdle!.systems.map((entry) => entry.system)).toEqual([...FED_IDLE_SYSTEMS])
    for (const entry of result.fedIdle!.systems) {
      expect(entry.errors, entry.system).toEqual([])
      expect(entry.readings, entry.system).toHaveLength(result.options.fedIdle.starts)
      for (const reading of entry.readings) {
        expect(reading.rssMb, entry.system).toBeGreaterThan(20)
        expect(reading.framesPerSecond, entry.system).toBeGreaterThan(0)
        expect(reading.cpuPercent, entry.system).toBeGreaterThan(0)
        // read through the server's inspector after a full collection, the floor's as the gateway's
        expect(reading.liveHeapMb, entry.system).toBeGreaterThan(1)
        expect(reading.liveHeapMb, entry.system).toBeLessThan(reading.rssMb)
      }
    }

    expect(result.rest.map((row) => row.target)).toEqual(restTargets.map((target) => target.name))
    for (const row of result.rest) {
      const target = restTargets.find((candidate) => candidate.name === row.target)!
      if (row.unavailable && target.optional) continue
      expect(row, `${row.target}: ${row.error ?? row.unavailable}`).toMatchObject({ ok: true })
      expect(row.requestsPerSecond).toBeGreaterThan(0)
      expect(row.serialLatencyMs!.p50).toBeGreaterThan(0)
      expect(row.answer!.bytes).toBeGreaterThan(0)
      expect(row.rounds![0]!.generatorCpuPercent, row.target).toBeGreaterThan(0)
      expect(row.rounds![0]!.targetCpuPercent, row.target).toBeGreaterThan(0)
    }
    expect(result.hostile, result.hostile?.error).toMatchObject({ ok: true })
    expect(result.hostile!.calls.length).toBeGreaterThan(10)
    const uploads = result.hostile!.calls.filter((call) => call.shape.startsWith('upload'))
    expect(uploads.map((call) => call.shape).sort()).toEqual([
      'upload with session',
      'upload with session',
      'upload without session',
      'upload without session',
    ])
    expect(result.hostile!.healthzMs.samples).toBeGreaterThan(0)
    // on a schedule: every request that came due in the measured span was sent, answered or not
    const { offeredPerSecond, requests, uploads: sentUploads } = result.hostile!
    expect(offeredPerSecond).toBeGreaterThan(0)
    expect(result.hostile!.generatorCpuPercent).toBeGreaterThan(0)
    // which side stalled is read from both: the gateway's loop timer ran about every 10 ms of the span
    const loop = result.hostile!.gatewayLoop
    expect(loop, 'the gateway loop-delay histogram read from /metrics').toBeDefined()
    expect(loop!.samples).toBeGreaterThan(result.options.hostileSeconds * 20)
    expect(loop!.over50ms).toBeLessThanOrEqual(loop!.over20ms)
    expect(result.hostile!.generatorLoopMaxMs).toBeGreaterThan(0)
    const due = offeredPerSecond! * result.options.hostileSeconds
    expect(Math.abs(requests + (sentUploads?.requests ?? 0) - due)).toBeLessThanOrEqual(1)
    // and the gateway's own time for each answer: every request sent in the span (after the first reading
    // and answered before the second), beside the uploads and /healthz probes it answered meanwhile
    const answers = result.hostile!.gatewayAnswers
    expect(answers, 'the gateway answer-time histogram read from /metrics').toBeDefined()
    expect(answers!.answers).toBeGreaterThanOrEqual(requests)
    expect(answers!.over50ms).toBeLessThanOrEqual(answers!.answers)

    // the generator-bound rule is applied to every real window, from that window's own two CPUs
    for (const row of result.rest)
      for (const round of row.rounds ?? [])
        expect(round.generatorBound, row.target).toBe(
          generatorBound({
            generatorCpuPercent: round.generatorCpuPercent,
            targetCpuPercent: round.targetCpuPercent,
            atCapacity: true,
          }),
        )
    expectFlaggedByTheRule(
      result.rounds!.systems.flatMap((entry) =>
        entry.windows.flat().filter((window) => window !== undefined),
      ),
    )
  }, 1_020_000)
})
