import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { leftovers } from './check-leftovers'
import { acceptsConnections, removeNestedRun, startNestedVitest, type NestedRun } from './nested-vitest'
import { groupMembers, RUN_DIR_ENV, spawnOwned, stopOwned } from './owned-processes'

// The process bookkeeping every test that starts a process goes through: a group ended as a group,
// and a file that ends badly (failed assertion, thrown setup, time-out, killed worker) leaves
// nothing running, no port listening and no temporary folder behind once its run's teardown is done.

const gatewayDir = fileURLToPath(new URL('../..', import.meta.url))
const fixtureConfig = fileURLToPath(new URL('fixtures/vitest.config.ts', import.meta.url))

const nestedRuns: NestedRun[] = []
afterEach(() => {
  // a failed expectation below must not leave the fixture's processes either
  for (const run of nestedRuns.splice(0)) removeNestedRun(run)
})

/** Runs the fixture file in a vitest of its own; resolves with its status and what it started. */
async function runFixture(end: string): Promise<{ status: number | null; runDir: string; out: string }> {
  const run = startNestedVitest(gatewayDir, ['--config', fixtureConfig], { FIXTURE_END: end })
  nestedRuns.push(run)
  const out = path.join(run.runDir, 'started.fixture')
  const status = await run.status
  expect(existsSync(out), `the fixture started nothing: ${run.output()}`).toBe(true)
  return { status, runDir: run.runDir, out }
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
      expect(await acceptsConnections(started.port)).toBe(false)
      expect(existsSync(started.dir)).toBe(false)
      expect(leftovers(runDir)).toEqual([])
    })
  }
})

describe("npm test's leak check", () => {
  it('names a process of the run with its port, and never one without the run marker', async () => {
    const runDir = mkdtempSync(path.join(tmpdir(), 'tradegate-test-run-'))
    const listen = `require('node:net').createServer().listen(0, '127.0.0.1', function () { console.log(String(this.address().port)) })`
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
      rmSync(runDir, { recursive: true, force: true })
    }
  })
})

describe('a run beside busy loops (npm run test:busy)', () => {
  const besideBusyCores = fileURLToPath(new URL('../../../scripts/beside-busy-cores.mjs', import.meta.url))

  /** Runs a command through the script as a developer would: outside npm test, so with a run folder of its own. */
  function runBesideBusy(script: string): Promise<{ status: number | null; output: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, BUSY_LOOPS: '1' }
    delete env[RUN_DIR_ENV]
    const child = spawn(process.execPath, [besideBusyCores, process.execPath, '-e', script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk))
    return new Promise((resolve) =>
      child.on('close', (status) => resolve({ status, output: Buffer.concat(chunks).toString() })),
    )
  }

  it('fails a passing command that left a process running, names it, and ends it', async () => {
    // the command passes, but leaves a detached child of its own group behind, as a crashed test would
    const leaveOne = `const c = require('node:child_process').spawn('sleep', ['600'], { detached: true, stdio: 'ignore' }); console.log('left ' + c.pid); c.unref()`
    const { status, output } = await runBesideBusy(leaveOne)
    const leftPid = Number(/left (\d+)/.exec(output)?.[1])
    expect(status).toBe(1)
    expect(output).toContain(`pid ${leftPid}: sleep 600`)
    await expect.poll(() => groupMembers(leftPid), { timeout: 10_000 }).toEqual([])
  })

  it("passes a command that left nothing, and keeps a failing command's status", async () => {
    expect(await runBesideBusy('process.exit(0)')).toMatchObject({ status: 0 })
    expect((await runBesideBusy('process.exit(3)')).status).toBe(3)
  })
})
