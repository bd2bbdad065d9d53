import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import type { BenchResult } from './main'
import { socketSystems } from './socket-systems'
import { restTargets } from './rest-targets'
import { loadtestsDir } from './child-process'

const run = promisify(execFile)

// Checks only that every registered system ran and produced figures; the figures themselves depend
// on the machine and are never asserted.
it('the quick harness runs every registered system and target and records their figures', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'loadtests-smoke-'))
  try {
    const outFile = path.join(dir, 'bench.json')
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'bench/main.ts', '--quick', '--no-install', '--out', outFile],
      { cwd: loadtestsDir, timeout: 100_000, maxBuffer: 10 * 2 ** 20 },
    )
    const result = JSON.parse(await readFile(outFile, 'utf8')) as BenchResult

    expect(result.socket.map((row) => row.system)).toEqual(socketSystems.map((system) => system.name))
    for (const row of result.socket) {
      expect(row, row.error).toMatchObject({ ok: true })
      expect(row.window!.deliveries).toBeGreaterThan(0)
      expect(row.window!.latencyMs.samples).toBeGreaterThan(0)
      expect(row.window!.latencyMs.p99).toBeGreaterThanOrEqual(0)
      expect(row.serverCpuMicrosPerDelivery).toBeGreaterThan(0)
      expect(row.rssPerConnectionKb).toEqual(expect.any(Number))
      expect(row.connect!.opened).toBe(row.clients)
      expect(row.connect!.perSecond).toBeGreaterThan(0)
      expect(stdout).toContain(row.system)
    }
    expect(result.saturation.map((report) => report.system)).toEqual(
      socketSystems.map((system) => system.name),
    )
    for (const report of result.saturation) {
      expect(report.error, report.system).toBeUndefined()
      expect(report.steps.length, report.system).toBeGreaterThan(0)
      expect(report.half!.deliveriesPerSecond, report.system).toBeGreaterThan(0)
      expect(report.storm, report.system).toMatchObject({ sockets: report.clients, failed: 0, missing: 0 })
    }
    const redisGateway = result.saturation.find((report) => report.system === 'gateway (redis bus)')!
    expect(redisGateway.stormBus!.channels).toBeGreaterThan(0)

    expect(result.rest.map((row) => row.target)).toEqual(restTargets.map((target) => target.name))
    for (const row of result.rest) {
      const target = restTargets.find((candidate) => candidate.name === row.target)!
      if (row.unavailable && target.optional) continue
      expect(row, row.error ?? row.unavailable).toMatchObject({ ok: true })
      expect(row.requestsPerSecond).toBeGreaterThan(0)
      expect(row.latencyMs!.p99).toBeGreaterThanOrEqual(0)
      expect(row.serialLatencyMs!.p50).toBeGreaterThan(0)
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}, 120_000)
