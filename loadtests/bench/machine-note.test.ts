import { describe, expect, it } from 'vitest'
import type { BenchResult } from './main'
import { stealPercent } from './proc-stats'
import { machineNote } from './results-md'

const run = (start: number, end: number, steal?: number) =>
  ({ loadAverage: { start, end }, stealPercent: steal }) as BenchResult

describe('whether a run had the machine to itself', () => {
  it("ignores the load the run's own processes add by its end", () => {
    expect(machineNote(run(0.4, 3.1, 0.5))).toBeUndefined()
  })

  it('names other work running at the start, and the CPU time the hypervisor took', () => {
    expect(machineNote(run(1.8, 2, 0.2))).toBe(
      'the machine was shared: other work was running when it started (load average 1.8)',
    )
    expect(machineNote(run(0.2, 2, 6.25))).toBe(
      'the machine was shared: the hypervisor took 6.3% of the CPU time for other guests (steal)',
    )
  })

  it('works out steal from two /proc/stat readings', () => {
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 3000, steal: 110 })).toBe(5)
    expect(stealPercent({ total: 1000, steal: 10 }, undefined)).toBeUndefined()
  })
})
