import { setTimeout as sleep } from 'node:timers/promises'
import { spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import path from 'node:path'
import { keepOutputTail } from '../../gateway/test/support/output-tail'
import { spawnOwned, stopOwned } from '../../gateway/test/support/owned-processes'
import { gatewayProcessEnv } from '../../scripts/gateway-env.mjs'

/** Above Node's default of 511 (the kernel caps it at net.core.somaxconn) so a storm is not refused. */
export const LISTEN_BACKLOG = 8192

export const loadtestsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

let tasksetAvailable: boolean | undefined
export function hasTaskset(): boolean {
  tasksetAvailable ??= spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0
  return tasksetAvailable
}

/** Pins this process (all its threads) to the given cores; false when taskset is missing or refused. */
export function pinSelf(cpus: string): boolean {
  if (!hasTaskset()) return false
  return spawnSync('taskset', ['-a', '-c', '-p', cpus, String(process.pid)], { stdio: 'ignore' }).status === 0
}

/** An error's message, or whatever was thrown, as text. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export function isMainModule(metaUrl: string): boolean {
  const entry = process.argv[1]
  return entry !== undefined && pathToFileURL(path.resolve(entry)).href === metaUrl
}

/** What a server child prints once it listens: one JSON line on stdout. */
export interface ReadyLine {
  event: 'listening'
  port: number
  pid: number
}

export function announceListening(port: number): void {
  const line: ReadyLine = { event: 'listening', port, pid: process.pid }
  process.stdout.write(`${JSON.stringify(line)}\n`)
}

/** Commands the harness writes to a server child's stdin, one JSON line each. */
export type ChildCommand =
  | { cmd: 'start-ticks' }
  | { cmd: 'set-rate'; scale: number }
  /** Frames published per topic with a publish time in [from, to] (epoch ms), from the tick feed. */
  | { cmd: 'count'; from: number; to: number }

/**
 * Serves the harness's commands on stdin, each acknowledged with {"event":"done","cmd":…,"result":…},
 * so the feed stays idle while clients connect: ticks start with start-ticks, set-rate scales every
 * rate, `count` answers from `count`. Stops the ticks before `close` on SIGTERM.
 */
export function runTicksOnCommand(
  startTicks: (scale: number) => { stop(): void; setRateScale(scale: number): void },
  count: (range: { from: number; to: number }) => unknown,
  close: () => Promise<void>,
): void {
  let scale = 1
  let ticks: ReturnType<typeof startTicks> | undefined
  const handle = (command: ChildCommand): unknown => {
    if (command.cmd === 'count') return count(command)
    if (command.cmd === 'set-rate' && Number.isFinite(command.scale) && command.scale > 0) {
      scale = command.scale
      ticks?.setRateScale(scale)
    }
    if (command.cmd === 'start-ticks') ticks ??= startTicks(scale)
    return undefined
  }
  createInterface({ input: process.stdin }).on('line', (line) => {
    let command: ChildCommand
    try {
      command = JSON.parse(line) as ChildCommand
    } catch {
      return
    }
    const result = handle(command)
    process.stdout.write(`${JSON.stringify({ event: 'done', cmd: command.cmd, result })}\n`)
  })
  exitOnSignal(async () => {
    ticks?.stop()
    await close()
  })
}

/** Exits cleanly on the harness's SIGTERM after running `close`, so ports and Redis keys are released. */
export function exitOnSignal(close: () => Promise<void>): void {
  const stop = (): void => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

export interface ChildServer {
  pid: number
  port: number
  pinned: boolean
  /** Sends a command line and resolves with the child's answer when it acknowledges it. */
  command(command: ChildCommand): Promise<unknown>
  stop(): Promise<void>
}

/**
 * Starts a TypeScript server script, built to JavaScript, under Node, through taskset when asked, and
 * waits for its JSON "listening" line. taskset execs Node, so the child's pid is the server's pid.
 */
export async function spawnTsServer(
  script: string,
  args: string[],
  options: { cpus?: string; nodeFlags?: string[] } = {},
): Promise<ChildServer> {
  const run = pinnedCommand(options.cpus, process.execPath, [
    ...(options.nodeFlags ?? []),
    await builtScript(script),
    ...args,
  ])
  const child = spawnOwned(run.command, run.args, {
    cwd: loadtestsDir,
    // the environment the gateway ships with (glibc's trim threshold), so that memory compares like with like
    env: { ...process.env, ...gatewayProcessEnv() },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  return waitForReady(child, run.pinned, 60_000)
}

const builtScripts = new Map<string, Promise<string>>()

/**
 * A server script as plain JavaScript in loadtests/build/, built once per harness process: its own modules
 * and the workspaces' inside, npm packages loaded from node_modules as they are published. A baseline runs
 * as Node runs a server in production, as the gateway's bundle does: under tsx, the loader's thread and its
 * own V8 isolate added about 25 MiB of RSS and 3 MiB of heap to an idle `ws` server's figures.
 */
function builtScript(script: string): Promise<string> {
  let built = builtScripts.get(script)
  if (!built) builtScripts.set(script, (built = buildScript(script)))
  return built
}

async function buildScript(script: string): Promise<string> {
  // loaded here, not at the top: the baselines have this module built into them and must not load esbuild
  const { build } = await import('esbuild')
  const outfile = path.join(loadtestsDir, 'build', `${path.basename(script, '.ts')}.mjs`)
  const { outputFiles } = await build({
    entryPoints: [script],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'packages-from-node-modules',
        setup: (builder) =>
          builder.onResolve({ filter: /^[^./]/ }, ({ path: name }) =>
            name.startsWith('@tradegate/') ? undefined : { path: name, external: true },
          ),
      },
    ],
  })
  // written whole, then renamed: harness processes side by side (test files in parallel) build the same file
  const partial = `${outfile}.${process.pid}`
  mkdirSync(path.dirname(outfile), { recursive: true })
  writeFileSync(partial, outputFiles[0]!.contents)
  renameSync(partial, outfile)
  return outfile
}

function waitForReady(child: ChildProcess, pinned: boolean, timeoutMs: number): Promise<ChildServer> {
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const stop = (): Promise<void> => stopOwned(child, { graceMs: 5_000 })
  const acknowledgements = new Map<string, Array<(result: unknown) => void>>()
  const command = (next: ChildCommand): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (!child.stdin) return reject(new Error('child has no stdin'))
      const waiting = acknowledgements.get(next.cmd) ?? []
      waiting.push(resolve)
      acknowledgements.set(next.cmd, waiting)
      child.stdin.write(`${JSON.stringify(next)}\n`)
    })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`server did not report listening within ${timeoutMs} ms; stderr: ${stderr}`))
    }, timeoutMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`server exited before listening (code ${code}, signal ${signal}); stderr: ${stderr}`))
    })
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      let parsed: Partial<ReadyLine> | { event: 'done'; cmd: string; result?: unknown }
      try {
        parsed = JSON.parse(line) as typeof parsed
      } catch {
        return
      }
      if (parsed.event === 'done' && 'cmd' in parsed) {
        acknowledgements.get(parsed.cmd)?.shift()?.(parsed.result)
        return
      }
      if (parsed.event !== 'listening' || !('port' in parsed) || typeof parsed.port !== 'number') return
      clearTimeout(timer)
      resolve({ pid: parsed.pid ?? child.pid!, port: parsed.port, pinned, command, stop })
    })
  })
}

export interface PinnedProcess {
  pid: number
  pinned: boolean
  /** The last few KB of stderr and stdout, for error messages. */
  output(): string
  readonly exited: boolean
  stop(): Promise<void>
}

/**
 * How long a child may take to start before the harness gives up on it. Generous on purpose: the
 * sandbox runs under tsx, and on a machine busy with other test tiers its compile alone can take
 * tens of seconds; a child that dies is reported at once, not at this deadline.
 */
export const STARTUP_DEADLINE_MS = 180_000

/** The command a program runs under to be pinned to `cpus`: taskset, or nothing when none or no taskset. */
export function pinnedUnder(cpus: string | undefined): string[] {
  return cpus !== undefined && hasTaskset() ? ['taskset', '-c', cpus] : []
}

/** `command` with `args` through taskset on `cpus` (taskset execs it: the pid is the program's), or as is. */
export function pinnedCommand(cpus: string | undefined, command: string, args: string[]) {
  const [program = command, ...programArgs] = [...pinnedUnder(cpus), command, ...args]
  return { command: program, args: programArgs, pinned: program !== command }
}

/**
 * Starts any program through taskset when `cpus` is given (taskset execs it, so the pid is the
 * program's), keeping the tail of its output for errors and stopping it with SIGTERM, then SIGKILL.
 */
export function spawnPinned(
  command: string,
  args: string[],
  options: { cpus?: string; env?: Record<string, string>; cwd?: string } = {},
): PinnedProcess {
  const { command: program, args: programArgs, pinned } = pinnedCommand(options.cpus, command, args)
  const child = spawnOwned(program, programArgs, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = keepOutputTail(child)
  let exited = false
  child.once('exit', () => (exited = true))
  return {
    pid: child.pid!,
    pinned,
    output,
    get exited() {
      return exited
    },
    async stop() {
      await stopOwned(child)
    },
  }
}

/** Polls `url` until it answers 2xx; throws with the process's output if it exits or time runs out. */
export async function waitForHttpOk(
  url: string,
  server: PinnedProcess,
  timeoutMs = STARTUP_DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last: string
  for (;;) {
    if (server.exited) throw new Error(`exited before ${url} answered: ${server.output()}`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) })
      if (response.ok) return
      last = `${response.status} ${await response.text()}`
    } catch (error) {
      last = errorText(error)
    }
    if (Date.now() > deadline) {
      await server.stop()
      throw new Error(`${url} not ready within ${timeoutMs} ms (${last}); output: ${server.output()}`)
    }
    await sleep(100)
  }
}
