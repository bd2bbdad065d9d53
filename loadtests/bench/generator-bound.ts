/**
 * The rule that keeps the load generator from capping a result. A window measures the target only
 * when the generator had room to spare and, where the window is meant to find the target's limit
 * (a REST run at full speed, the step that decides a socket capacity), the target was the one out of
 * room. Anything else is flagged generator-bound and enters no ratio.
 */
import { spread } from './percentiles'

/** Above this share of its own core the generator may be what limits the window. */
export const GENERATOR_MAX_PERCENT = 70
/** At capacity the target must be at least this busy on its own core, or something else was the limit. */
export const TARGET_MIN_PERCENT = 90

export interface WindowCpu {
  /** The load generator's CPU over the window, in percent of one core. */
  generatorCpuPercent: number | undefined
  /** The target's CPU over the window, in percent of one core. */
  targetCpuPercent: number | undefined
  /** Whether the window is meant to find the target's limit (REST at full speed, a capacity step). */
  atCapacity: boolean
}

/** Why the window is generator-bound, in words; undefined when it measures the target. */
export function generatorBound(cpu: WindowCpu): string | undefined {
  const reasons: string[] = []
  if (cpu.generatorCpuPercent === undefined) reasons.push("the generator's CPU was not read")
  else if (cpu.generatorCpuPercent > GENERATOR_MAX_PERCENT)
    reasons.push(`generator at ${cpu.generatorCpuPercent.toFixed(0)}% of its core`)
  if (cpu.atCapacity) {
    if (cpu.targetCpuPercent === undefined) reasons.push("the target's CPU was not read")
    else if (cpu.targetCpuPercent < TARGET_MIN_PERCENT)
      reasons.push(`target at ${cpu.targetCpuPercent.toFixed(0)}% of its core at capacity`)
  }
  return reasons.length > 0 ? reasons.join(', ') : undefined
}

/** CPU time over a wall-clock span as percent of one core. */
export function cpuPercent(cpuMicros: number | undefined, seconds: number): number | undefined {
  return cpuMicros === undefined || !(seconds > 0) ? undefined : (cpuMicros / 1e6 / seconds) * 100
}

/**
 * Ratios of two systems taken only within a round (a[i] / b[i] where both were measured and
 * usable), with their median and range: a slow spell of the machine in one round cannot make a ratio.
 */
export function sameRoundRatios(
  a: ReadonlyArray<number | undefined>,
  b: ReadonlyArray<number | undefined>,
): { ratios: number[]; median: number; low: number; high: number } | undefined {
  const ratios: number[] = []
  for (let round = 0; round < Math.min(a.length, b.length); round++) {
    const top = a[round]
    const bottom = b[round]
    if (top === undefined || bottom === undefined || !(bottom > 0) || !Number.isFinite(top)) continue
    ratios.push(top / bottom)
  }
  const middle = spread(ratios)
  return middle ? { ratios, ...middle } : undefined
}
