import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { emptyWebDist } from './helpers'
import { REDIS_URL, deleteKeys, uniquePrefix } from './live/helpers'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './live/sandbox-upstream'
import { freePort } from '../../scripts/free-port.mjs'
import { inspectorFlag, liveHeapReadings } from './support/live-heap'
import { spawnOwned, stopOwned } from './support/owned-processes'
import { DEFAULT_TICK_MS } from '../sandbox/app'

// The built gateway as operators run it (Redis, the upstream feed open, no sockets), idle for a minute:
// what its heap holds then. The heap is read after a full collection, through the inspector, so the
// figure is what the gateway keeps alive (code, modules, caches, the feed's books), not garbage waiting
// for a collection whose timing depends on the machine. Each reading also holds what the feed's latest
// frames have in flight at its moment (pub/sub replies, parsed ticks): five readings a second apart moved
// by up to 2.1 MiB in one CI run (14.92 to 16.98), and single readings of one build from 15.0 MiB alone to
// 17.5 in a busy CI run. So five are taken and the least is judged. loadtests/LIFECYCLE.md has the breakdown.

const gatewayRoot = fileURLToPath(new URL('..', import.meta.url))
const buildDir = `${gatewayRoot}dist/test-${randomBytes(4).toString('hex')}`
const bundle = `${buildDir}/main.js`
const IDLE_MS = 60_000
/**
 * Live heap of an idle gateway, the least of five readings: 15.4 MiB alone and 15.6 beside the rest of the
 * tier on 2026-12-01 (17.1–17.5 before that day's cuts; loadtests/LIFECYCLE.md). The target is 15; this
 * holds the cuts made so far, with a tenth more for a busy machine.
 */
const LIVE_HEAP_LIMIT_MIB = 17.5

let sandbox: SandboxUpstream
const prefix = uniquePrefix('idle-memory')

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['build.mjs', bundle], { cwd: gatewayRoot })
  // the sandbox at its own pace, as `npm run sandbox` runs it: the feed an idle gateway receives
  sandbox = await startSandboxUpstream(DEFAULT_TICK_MS)
}, 120_000)

afterAll(async () => {
  await sandbox?.close()
  await deleteKeys(prefix)
  rmSync(buildDir, { recursive: true, force: true })
})

it('an idle gateway with its feed open keeps its live heap within bounds after a minute', async () => {
  const port = await freePort()
  const inspectPort = await freePort()
  let output = ''
  const child = spawnOwned(process.execPath, [inspectorFlag(inspectPort), bundle], {
    cwd: gatewayRoot,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      UPSTREAM_URL: sandbox.url,
      FEED_TOKEN,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      WEB_DIST: emptyWebDist(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  try {
    const metrics = () =>
      fetch(`http://127.0.0.1:${port}/metrics`).then(
        (response) => response.text(),
        () => '',
      )
    await expect
      .poll(metrics, { timeout: 120_000, interval: 500 })
      .toMatch(/^gateway_feed_connected(\{[^}]*\})? 1$/m)
    const feedOpenAt = Date.now()
    // the idle minute is what is measured, not a wait for something to happen
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
    expect(output).not.toMatch(/"level":(50|60)/)
    expect(await metrics()).toMatch(/^gateway_feed_connected(\{[^}]*\})? 1$/m)
    expect(Date.now() - feedOpenAt).toBeGreaterThanOrEqual(IDLE_MS)

    // the inspector opens only now (SIGUSR1), so the idle minute ran without it
    const readings = await liveHeapReadings(child.pid!, inspectPort, 5)
    console.log(
      `idle gateway: live heap ${readings.map((r) => r.toFixed(2)).join(', ')} MiB after ${IDLE_MS / 1000} s`,
    )
    expect(Math.min(...readings)).toBeLessThanOrEqual(LIVE_HEAP_LIMIT_MIB)
  } finally {
    await stopOwned(child, { signal: 'SIGKILL', graceMs: 10_000 })
  }
}, 300_000)
