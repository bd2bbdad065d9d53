import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import path from 'node:path'

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
  stop(): Promise<void>
}

export interface SpawnOptions {
  /** Cores for taskset -c, e.g. "1"; ignored (run unpinned) when taskset is unavailable. */
  cpus?: string
  env?: Record<string, string>
  readyTimeoutMs?: number
}

/**
 * Starts a TypeScript server under Node with tsx as its loader, through taskset when asked, and
 * waits for its JSON "listening" line. taskset execs Node, so the child's pid is the server's pid.
 */
export function spawnTsServer(
  script: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<ChildServer> {
  const nodeArgs = ['--import', 'tsx', script, ...args]
  const pinned = options.cpus !== undefined && hasTaskset()
  const [command, commandArgs] = pinned
    ? ['taskset', ['-c', options.cpus!, process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs]
  const child = spawn(command, commandArgs, {
    cwd: loadtestsDir,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return waitForReady(child, pinned, options.readyTimeoutMs ?? 20_000)
}

export function waitForReady(child: ChildProcess, pinned: boolean, timeoutMs: number): Promise<ChildServer> {
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
  }
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
      let parsed: Partial<ReadyLine>
      try {
        parsed = JSON.parse(line) as Partial<ReadyLine>
      } catch {
        return
      }
      if (parsed.event !== 'listening' || typeof parsed.port !== 'number') return
      clearTimeout(timer)
      resolve({ pid: parsed.pid ?? child.pid!, port: parsed.port, pinned, stop })
    })
  })
}
