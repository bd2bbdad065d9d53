import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { leftovers } from './check-leftovers'
import { readRegistry, REGISTRY_ENV, RUN_DIR_ENV, spawnOwned, type RegistryEntry } from './owned-processes'

// vitest run inside a test, as a run of its own, for the tests that make a file end badly on purpose
// and then look at what it left. Its run folder sits inside this worker's registry, so if this test
// itself ends badly, this run's teardown ends the nested one's processes too.

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const vitestBin = path.join(repoRoot, 'node_modules/vitest/vitest.mjs')

export interface NestedRun {
  runDir: string
  /** its exit status, once it has ended */
  status: Promise<number | null>
  output(): string
  /** what its files have registered so far */
  registered(): RegistryEntry[]
}

/** `vitest run <args>` in `cwd` with `env` added; none of this run's vitest variables. */
export function startNestedVitest(cwd: string, args: string[], env: Record<string, string> = {}): NestedRun {
  const runDir = mkdtempSync(path.join(process.env[REGISTRY_ENV] ?? tmpdir(), 'nested-run-'))
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'),
  )
  const vitest = spawnOwned(process.execPath, [vitestBin, 'run', ...args], {
    cwd,
    env: { ...inherited, ...env, [RUN_DIR_ENV]: runDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  vitest.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  vitest.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return {
    runDir,
    status: new Promise((resolve) => vitest.once('exit', resolve)),
    output: () => output,
    registered: () => readRegistry(runDir),
  }
}

/** Ends whatever a nested run left (only after a failed expectation) and removes its folder. */
export function removeNestedRun(run: NestedRun): void {
  for (const { pid } of leftovers(run.runDir)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  rmSync(run.runDir, { recursive: true, force: true })
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
