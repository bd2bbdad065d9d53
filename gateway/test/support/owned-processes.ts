import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// The one way a test starts a process or makes a temporary folder that must not outlive it. Each
// process is started in a process group of its own (detached) and ended as a group, so what it
// starts in turn (nginx's workers, a shell's children, Chromium's helpers) ends with it. Each is
// also written to a registry folder before the test goes on, so that when the test worker dies
// without cleaning up (a SIGKILL, a time-out that abandons a hook) the workspace's global teardown
// (process-teardown.ts) still finds and ends it. Every child also carries the run's folder in its
// environment, which `npm test`'s leak check (check-leftovers.ts) reads to find anything missed.

/** Set by `npm test` for every tier: the run's folder, holding each workspace's registry. */
export const RUN_DIR_ENV = 'TRADEGATE_TEST_RUN_DIR'
/** Set by a workspace's global setup for its workers: the folder its files register into. */
export const REGISTRY_ENV = 'TRADEGATE_TEST_REGISTRY'

export interface ProcessEntry {
  kind: 'process'
  pid: number
  /** the process group, which is the pid for a group leader started detached */
  pgid: number
  /** the leader's start time in clock ticks since boot, so a reused pid is never mistaken for it */
  startTicks: number
  command: string
  /** the worker that started it */
  owner: number
}

export interface DirEntry {
  kind: 'dir'
  path: string
  owner: number
}

export type RegistryEntry = ProcessEntry | DirEntry

/**
 * Groups this process started and has not seen end (by leader pid, with its start time), killed at
 * once if this process exits or is told to stop.
 */
const liveGroups = new Map<number, number>()
let exitHooked = false

function register(entry: RegistryEntry, name: string): void {
  const registry = process.env[REGISTRY_ENV]
  if (registry) writeFileSync(path.join(registry, `${name}.json`), JSON.stringify(entry))
}

/**
 * Every entry under `folder`, in it and in its subfolders: a run's folder holds its workspaces'
 * registries, and a test that runs vitest inside vitest puts that run's folder in its own registry.
 */
export function readRegistry(folder: string): RegistryEntry[] {
  let names: Array<{ name: string; isDirectory(): boolean }>
  try {
    names = readdirSync(folder, { withFileTypes: true })
  } catch {
    return []
  }
  const entries: RegistryEntry[] = []
  for (const entry of names) {
    const file = path.join(folder, entry.name)
    if (entry.isDirectory()) entries.push(...readRegistry(file))
    if (!entry.name.endsWith('.json')) continue
    try {
      entries.push(JSON.parse(readFileSync(file, 'utf8')) as RegistryEntry)
    } catch {
      // a file cut short by a worker killed mid-write names nothing it could have started yet
    }
  }
  return entries
}

/** What /proc/<pid>/stat says of a process, or null when it is gone (or there is no /proc). */
export function processStat(pid: number): { ppid: number; pgid: number; startTicks: number } | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // the command name in parentheses may hold spaces; the fields after it are fixed
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  if (fields[0] === 'Z') return null
  return { ppid: Number(fields[1]), pgid: Number(fields[2]), startTicks: Number(fields[19]) }
}

export function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
  } catch {
    return []
  }
}

/**
 * The live members of the group `pgid` whose leader started at `startTicks` (any, when not given):
 * none when a new process has since taken the leader's pid for a group of its own.
 */
export function groupMembers(pgid: number, startTicks?: number): number[] {
  const leader = processStat(pgid)
  if (startTicks !== undefined && leader?.pgid === pgid && leader.startTicks !== startTicks) return []
  return allPids().filter((pid) => {
    const stat = processStat(pid)
    return stat !== null && stat.pgid === pgid && stat.startTicks >= (startTicks ?? 0)
  })
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // the group has already ended
  }
}

function hookExit(): void {
  if (exitHooked) return
  exitHooked = true
  const killAll = (): void => {
    for (const [pgid, startTicks] of liveGroups)
      if (groupMembers(pgid, startTicks).length) signalGroup(pgid, 'SIGKILL')
    liveGroups.clear()
  }
  process.on('exit', killAll)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      killAll()
      // alone, keep the signal's usual meaning (exit); beside another listener, that one decides
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal)
        process.kill(process.pid, signal)
      }
    }
    process.on(signal, onSignal)
  }
}

/** Kills what is left of a group this process started, unless it is already known to have ended. */
function endGroup(pgid: number): void {
  const startTicks = liveGroups.get(pgid)
  if (startTicks === undefined) return
  liveGroups.delete(pgid)
  if (groupMembers(pgid, startTicks).length) signalGroup(pgid, 'SIGKILL')
}

/** Starts the child's group bookkeeping: registered now, forgotten once the group has ended. */
function own(pid: number, command: string): ProcessEntry {
  const entry: ProcessEntry = {
    kind: 'process',
    pid,
    pgid: pid,
    startTicks: processStat(pid)?.startTicks ?? 0,
    command,
    owner: process.pid,
  }
  register(entry, `process-${pid}-${entry.startTicks}`)
  liveGroups.set(pid, entry.startTicks)
  hookExit()
  return entry
}

/**
 * `spawn`, in a process group of its own that is registered for the teardown. Its environment is
 * the given one (or this process's) plus the run's markers, so the leak check finds its children.
 * End it with `stopOwned`, or signal the whole group with `signalGroup(child.pid, …)`.
 */
export function spawnOwned(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildProcess {
  const markers: Record<string, string> = {}
  for (const name of [RUN_DIR_ENV, REGISTRY_ENV]) {
    const value = process.env[name]
    if (value) markers[name] = value
  }
  const child = spawn(command, args, {
    ...options,
    // a marker the caller set (a nested run's own folder) is kept
    env: { ...markers, ...(options.env ?? process.env) },
    detached: true,
  })
  if (child.pid === undefined) return child
  const pid = child.pid
  own(pid, [command, ...args].join(' '))
  // once the leader is gone, whatever it left in its group goes too
  child.once('exit', () => endGroup(pid))
  return child
}

/**
 * Registers the groups that another library started detached as children of this process (Playwright
 * starts Chromium so) and that are not registered yet; returns their leaders' pids.
 */
export function adoptChildGroups(matches: (command: string) => boolean): number[] {
  const adopted: number[] = []
  for (const pid of allPids()) {
    const stat = processStat(pid)
    if (!stat || stat.ppid !== process.pid || stat.pgid !== pid || liveGroups.get(pid) === stat.startTicks)
      continue
    const command = commandLine(pid)
    if (!matches(command)) continue
    own(pid, command)
    adopted.push(pid)
  }
  return adopted
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Ends a group: `signal` first (SIGTERM unless told), SIGKILL after `graceMs` if the leader still runs,
 * then SIGKILL for anything left in the group. Resolves once the leader has exited.
 */
export async function stopOwned(
  child: ChildProcess,
  { signal = 'SIGTERM', graceMs = 10_000 }: { signal?: NodeJS.Signals; graceMs?: number } = {},
): Promise<void> {
  const pid = child.pid
  if (pid === undefined) return
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    signalGroup(pid, signal)
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs)
    await exited
    clearTimeout(timer)
  }
  endGroup(pid)
}

/** Registers a folder for the teardown to remove, in case the test that made it cannot. */
export function ownDir(dir: string): void {
  register({ kind: 'dir', path: dir, owner: process.pid }, `dir-${randomBytes(6).toString('hex')}`)
}

/** A temporary folder registered for the teardown, which removes it if the test cannot. */
export function ownTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  ownDir(dir)
  return dir
}

/**
 * Whether `pid`'s environment sets `name` to the folder `folder` or one inside it (a nested run's)
 * (false when it cannot be read).
 */
export function environUnder(pid: number, name: string, folder: string): boolean {
  let environ: string[]
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')
  } catch {
    return false
  }
  return environ.some((line) => line === `${name}=${folder}` || line.startsWith(`${name}=${folder}/`))
}

/**
 * Ends every group the registry names that still has members, and every process whose
 * environment carries the registry (except `spare`: this process and its workers), then removes the
 * registered folders. Returns the command lines it had to end.
 */
export async function endRegistered(
  registry: string,
  spare: (pid: number) => boolean = () => false,
): Promise<string[]> {
  const entries = readRegistry(registry)
  const ended: string[] = []
  const groups = entries.filter((entry): entry is ProcessEntry => entry.kind === 'process')
  const alive = groups.filter((entry) => groupMembers(entry.pgid, entry.startTicks).length > 0)
  for (const entry of alive) {
    ended.push(entry.command)
    signalGroup(entry.pgid, 'SIGTERM')
  }
  const inGroups = new Set(alive.flatMap((entry) => groupMembers(entry.pgid, entry.startTicks)))
  const strays = allPids().filter(
    (pid) =>
      pid !== process.pid && !spare(pid) && !inGroups.has(pid) && environUnder(pid, REGISTRY_ENV, registry),
  )
  for (const pid of strays) {
    ended.push(commandLine(pid))
    try {
      process.kill(pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 5000
  const remaining = (): boolean =>
    alive.some((entry) => groupMembers(entry.pgid, entry.startTicks).length > 0) ||
    strays.some((pid) => processStat(pid) !== null)
  while (remaining() && Date.now() < deadline) await sleep(50)
  for (const entry of alive) signalGroup(entry.pgid, 'SIGKILL')
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  while (remaining() && Date.now() < deadline + 5000) await sleep(50)
  for (const entry of entries) if (entry.kind === 'dir') rmSync(entry.path, { recursive: true, force: true })
  return ended
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() || `pid ${pid}`
  } catch {
    return `pid ${pid}`
  }
}

/** The TCP ports `pid` listens on (from /proc/net/tcp{,6} and its open sockets). */
export function listeningPorts(pid: number): number[] {
  const byInode = new Map<string, number>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // state 0A is LISTEN; the local address is HEX_IP:HEX_PORT
      if (fields[3] !== '0A') continue
      byInode.set(fields[9]!, parseInt(fields[1]!.split(':')[1]!, 16))
    }
  }
  const ports = new Set<number>()
  let fds: string[]
  try {
    fds = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return []
  }
  for (const fd of fds) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]
      const port = inode ? byInode.get(inode) : undefined
      if (port !== undefined) ports.add(port)
    } catch {
      // closed meanwhile
    }
  }
  return [...ports].sort((a, b) => a - b)
}
