import { execFileSync, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { emptyWebDist, waitFor } from './helpers'
import { EPHEMERAL_START, freePort } from '../../scripts/free-port.mjs'
import { spawnOwned } from './support/owned-processes'

// `npm start` as a user runs it: the script builds the gateway when stale, starts the sandbox and
// the gateway, restarts a sandbox that dies, and one SIGTERM stops everything.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
// the gateway serves an empty directory, so the script has no client to build
const webDist = emptyWebDist()

afterAll(() => rmSync(webDist, { recursive: true, force: true }))

interface ChildInfo {
  pid: number
  command: string
}

function childrenOf(pid: number): ChildInfo[] {
  let listing: string
  try {
    listing = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
  } catch {
    return [] // ps exits 1 when there are none
  }
  return listing
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), command: match[2] ?? '' }))
}

function only(found: ChildInfo[], what: string): ChildInfo {
  const [first] = found
  if (found.length !== 1 || !first) throw new Error(`expected one ${what}, found ${JSON.stringify(found)}`)
  return first
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
  })

/** A call the gateway never caches or retries, so a 200 proves the sandbox answered it just now. */
async function apiAnswers(base: string): Promise<boolean> {
  const call = CALLS.getCountryCode
  const response = await fetch(base + call.path, {
    method: call.method,
    signal: AbortSignal.timeout(3000),
  }).catch(() => null)
  if (response?.status !== 200) return false
  const body = (await response.json()) as { code?: unknown }
  return body.code === 200
}

interface StartedScript {
  base: string
  script: ChildProcess
  output(): string
  sandboxes(): ChildInfo[]
  gateways(): ChildInfo[]
}

/**
 * `node scripts/start.mjs` with `env` over a free gateway port, handed to `run`; its output is added to any
 * failure, and every process it started is ended afterwards, whatever `run` left running.
 */
async function withStartScript(
  env: Record<string, string>,
  run: (started: StartedScript) => Promise<void>,
): Promise<void> {
  const port = await freePort()
  let output = ''
  const script = spawnOwned(process.execPath, ['scripts/start.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      UPSTREAM_URL: '',
      SANDBOX_PORT: '',
      REDIS_URL: '',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: webDist,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  script.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  script.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const scriptPid = script.pid ?? -1
  // every process the script started, so a failure leaves none behind
  const seen = new Set<number>()
  const children = () => {
    const found = childrenOf(scriptPid)
    for (const { pid } of found) seen.add(pid)
    return found
  }
  const base = `http://127.0.0.1:${port}`
  try {
    // the first run may build the gateway bundle
    await waitFor(
      async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200,
      'healthz',
      90_000,
    )
    await waitFor(() => apiAnswers(base), 'an /api call through the gateway', 15_000)
    await run({
      base,
      script,
      output: () => output,
      sandboxes: () => children().filter((info) => info.command.includes('dist/sandbox.js')),
      gateways: () => children().filter((info) => info.command.includes('dist/main.js')),
    })
  } catch (error) {
    throw new Error(`${String(error)}\n--- npm start output ---\n${output.slice(-4000)}`, { cause: error })
  } finally {
    children()
    if (script.exitCode === null && script.signalCode === null) script.kill('SIGKILL')
    for (const pid of seen) if (alive(pid)) process.kill(pid, 'SIGKILL')
  }
}

describe('npm start', () => {
  it('starts the sandbox on SANDBOX_PORT, restarts it there when it exits while the gateway stays up, and stops both on SIGTERM', async () => {
    const sandboxPort = await freePort()
    await withStartScript(
      { SANDBOX_PORT: String(sandboxPort) },
      async ({ base, script, output, sandboxes, gateways }) => {
        const gateway = only(gateways(), 'gateway')
        const sandbox = only(sandboxes(), 'sandbox')
        expect(output()).toContain(`starting the sandbox upstream on port ${sandboxPort}`)

        process.kill(sandbox.pid, 'SIGKILL')
        await waitFor(
          () => output().includes(`sandbox exited (SIGKILL); restarting it on port ${sandboxPort}`),
          'restart line',
          10_000,
        )
        await waitFor(() => sandboxes().some((info) => info.pid !== sandbox.pid), 'a new sandbox', 15_000)
        await waitFor(() => apiAnswers(base), 'an /api call after the restart', 30_000)

        expect(script.exitCode).toBeNull()
        expect(alive(gateway.pid)).toBe(true)
        expect(gateways().map((info) => info.pid)).toEqual([gateway.pid])
        expect(output()).not.toMatch(/gateway exited/)
        const restarted = only(sandboxes(), 'sandbox')

        script.kill('SIGTERM')
        await exited(script)
        expect(script.exitCode).toBe(0)
        expect(alive(gateway.pid)).toBe(false)
        expect(alive(restarted.pid)).toBe(false)
      },
    )
  }, 150_000)

  it('without SANDBOX_PORT, puts the sandbox on a port below the ephemeral range, which no connection can take before a restart listens again', async () => {
    await withStartScript({}, async ({ script, output }) => {
      const announced = /starting the sandbox upstream on port (\d+)/.exec(output())
      expect(announced, output()).not.toBeNull()
      expect(Number(announced![1])).toBeLessThan(EPHEMERAL_START)
      script.kill('SIGTERM')
      await exited(script)
      expect(script.exitCode).toBe(0)
    })
  }, 150_000)
})
