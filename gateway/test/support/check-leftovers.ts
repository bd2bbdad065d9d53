import { rmSync } from 'node:fs'
import path from 'node:path'
import {
  allPids,
  commandLine,
  environUnder,
  groupMembers,
  listeningPorts,
  readRegistry,
  RUN_DIR_ENV,
  signalGroup,
  type ProcessEntry,
} from './owned-processes'

// `npm test`'s last check, run as `node --import tsx gateway/test/support/check-leftovers.ts <run dir>`
// once every tier has ended: a process the suite started that still runs, or a port it still
// listens on, fails the run with its command line, pid and ports. The suite's processes are the
// ones carrying the run's folder in their environment, and the members of the groups the
// workspaces registered (a process that rewrites its environment area, as redis-server does for its
// title, is still found by its group): a developer's own servers and the machine's Redis carry
// neither and are never named. What is found is then ended, and the run's folder removed.

export interface Leftover {
  pid: number
  command: string
  ports: number[]
}

export function leftovers(runDir: string, spare: (pid: number) => boolean = () => false): Leftover[] {
  const groups = readRegistry(runDir).filter((entry): entry is ProcessEntry => entry.kind === 'process')
  const pids = new Set<number>()
  for (const entry of groups) for (const pid of groupMembers(entry.pgid, entry.startTicks)) pids.add(pid)
  for (const pid of allPids()) if (environUnder(pid, RUN_DIR_ENV, runDir)) pids.add(pid)
  return [...pids]
    .filter((pid) => pid !== process.pid && !spare(pid))
    .sort((a, b) => a - b)
    .map((pid) => ({ pid, command: commandLine(pid), ports: listeningPorts(pid) }))
}

export function describeLeftover({ pid, command, ports }: Leftover): string {
  return `pid ${pid}${ports.length ? `, listening on ${ports.join(', ')}` : ''}: ${command}`
}

function main(runDir: string): number {
  const found = leftovers(runDir, (pid) => pid === process.ppid)
  for (const { pid } of found) signalGroup(pid, 'SIGKILL')
  for (const { pid } of found) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // ended with its group
    }
  }
  rmSync(runDir, { recursive: true, force: true })
  if (!found.length) return 0
  console.log(`[test] FAILED: the suite left ${found.length} process(es) running (now ended):`)
  for (const leftover of found) console.log(`  ${describeLeftover(leftover)}`)
  return 1
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const runDir = process.argv[2]
  if (!runDir) {
    console.error('usage: check-leftovers.ts <run dir>')
    process.exit(2)
  }
  process.exit(main(runDir))
}
