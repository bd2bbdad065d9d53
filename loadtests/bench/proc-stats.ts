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

/**
 * A process's CPU from now on: the function returned gives the µs it used since, or undefined without
 * a pid or /proc.
 */
export function cpuSince(pid: number | undefined): () => number | undefined {
  const before = pid === undefined ? undefined : readCpuMicros(pid)
  return () => {
    const after = pid === undefined ? undefined : readCpuMicros(pid)
    return before === undefined || after === undefined ? undefined : after - before
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

/** The machine's CPU time so far, in clock ticks: all of it, the idle part, and what the hypervisor took (steal). */
export function readMachineTicks(): { total: number; idle: number; steal: number } | undefined {
  try {
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number)
    return {
      total: fields.reduce((sum, value) => sum + value, 0),
      idle: (fields[3] ?? 0) + (fields[4] ?? 0),
      steal: fields[7] ?? 0,
    }
  } catch {
    return undefined
  }
}

/** Percent of the machine's CPU time the hypervisor gave to other guests between two readings. */
export function stealPercent(
  before: ReturnType<typeof readMachineTicks>,
  after: ReturnType<typeof readMachineTicks>,
): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined
  return ((after.steal - before.steal) / (after.total - before.total)) * 100
}

/** Percent of all cores busy (not idle) between two readings. */
export function busyPercent(
  before: ReturnType<typeof readMachineTicks>,
  after: ReturnType<typeof readMachineTicks>,
): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined
  return (1 - (after.idle - before.idle) / (after.total - before.total)) * 100
}
