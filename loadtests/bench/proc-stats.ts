import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'

let clockTicks: number | undefined
/** Kernel clock ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
function clockTicksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      clockTicks = 100
    }
  }
  return clockTicks
}

/** User plus system CPU time of a process in microseconds, or undefined without /proc. */
export function readCpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may contain spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const utime = Number(fields[11])
    const stime = Number(fields[12])
    return ((utime + stime) / clockTicksPerSecond()) * 1_000_000
  } catch {
    return undefined
  }
}

/** Resident set size in bytes, from VmRSS in /proc/<pid>/status. */
export function readRssBytes(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
    return match ? Number(match[1]) * 1024 : undefined
  } catch {
    return undefined
  }
}
