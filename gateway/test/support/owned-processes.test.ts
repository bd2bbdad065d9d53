import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { leftovers } from './check-leftovers'
import { groupMembers, REGISTRY_ENV, RUN_DIR_ENV, spawnOwned, stopOwned } from './owned-processes'

// The process bookkeeping every test that starts a process goes through: a group ended as a group,
// and a file that ends badly (failed assertion, thrown setup, time-out, killed worker) leaves
// nothing running, no port listening and no temporary folder behind once its run's teardown is done.

const gatewayDir = fileURLToPath(new URL('../..', import.meta.url))
const fixtureConfig = fileURLToPath(new URL('fixtures/vitest.config.ts', import.meta.url))

const listens = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

const runDirs: string[] = []
afterEach(() => {
  for (const dir of runDirs.splice(0)) {
    // a failed expectation above must not leave the fixture's processes either
    for (const { pid } of leftovers(dir)) process.kill(pid, 'SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
})

/** Runs the fixture file in a vitest of its own with a run folder of its own; resolves with its status. */
async function runFixture(end: string): Promise<{ status: number | null; runDir: string; out: string }> {
  const runDir = mkdtempSync(path.join(tmpdir(), 'tradegate-test-run-'))
  runDirs.push(runDir)
  const out = path.join(runDir, 'started.json')
  // the nested run is not one of this run's workers: its own markers, none of this vitest's
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== REGISTRY_ENV),
  )
  const vitest = spawn(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--config', fixtureConfig],
    {
      cwd: path.join(gatewayDir, '..'),
      env: { ...env, [RUN_DIR_ENV]: runDir, FIXTURE_END: end, FIXTURE_OUT: out },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  vitest.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  vitest.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const status = await new Promise<number | null>((resolve) => vitest.once('exit', resolve))
  expect(existsSync(out), `the fixture started nothing: ${output}`).toBe(true)
  return { status, runDir, out }
}

describe('processes a test starts', () => {
  it('end as a group: the children a process started go with it', async () => {
    const child = spawnOwned('sh', ['-c', 'sleep 600 & sleep 600 & wait'], { stdio: 'ignore' })
    await expect.poll(() => groupMembers(child.pid!).length, { timeout: 10_000 }).toBe(3)
    await stopOwned(child)
    await expect.poll(() => groupMembers(child.pid!), { timeout: 10_000 }).toEqual([])
  })

  for (const end of ['fail', 'throw', 'timeout', 'sigkill']) {
    it(`are ended by the teardown when a file ends badly (${end}), with their ports and folders`, async () => {
      const { status, runDir, out } = await runFixture(end)
      expect(status).not.toBe(0)
      const started = JSON.parse(readFileSync(out, 'utf8')) as {
        pgid: number
        pids: number[]
        port: number
        dir: string
      }
      // the listening process and the shell's sleeping child
      expect(started.pids.length).toBe(2)
      expect(groupMembers(started.pgid)).toEqual([])
      expect(await listens(started.port)).toBe(false)
      expect(existsSync(started.dir)).toBe(false)
      expect(leftovers(runDir)).toEqual([])
    })
  }
})

describe("npm test's leak check", () => {
  it('names a process of the run with its port, and never one without the run marker', async () => {
    const runDir = mkdtempSync(path.join(tmpdir(), 'tradegate-test-run-'))
    runDirs.push(runDir)
    const listen = `require('node:net').createServer().listen(0, '127.0.0.1', function () { console.log(this.address().port) })`
    // a plain spawn, unregistered: found by the marker it inherits
    const ours = spawn(process.execPath, ['-e', listen], {
      env: { ...process.env, [RUN_DIR_ENV]: runDir },
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    // a developer's own server, started the same way without the marker
    const theirs = spawn(process.execPath, ['-e', listen], {
      env: { ...process.env, [RUN_DIR_ENV]: '' },
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    try {
      const portOf = (child: typeof ours): Promise<number> =>
        new Promise((resolve) =>
          createInterface({ input: child.stdout! }).once('line', (line) => resolve(Number(line))),
        )
      const [ourPort] = await Promise.all([portOf(ours), portOf(theirs)])
      expect(leftovers(runDir)).toEqual([
        { pid: ours.pid, command: `${process.execPath} -e ${listen}`, ports: [ourPort] },
      ])
    } finally {
      ours.kill('SIGKILL')
      theirs.kill('SIGKILL')
    }
  })
})
