import { describe, expect, it } from 'vitest'
import type { BenchResult } from './types'
import { busyPercent, stealPercent } from './proc-stats'
import { machineNote } from './report-format'

const run = (start: number, end: number, steal?: number, busyBefore?: number) =>
  ({ loadAverage: { start, end }, stealPercent: steal, busyBeforePercent: busyBefore }) as BenchResult

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

  it('trusts how busy the cores were just before the start over a load average that remembers ended work', () => {
    expect(machineNote(run(1.9, 2, 0, 3))).toBeUndefined()
    expect(machineNote(run(0.2, 2, 0, 60))).toBe(
      'the machine was shared: other work kept the cores 60% busy just before it started',
    )
    expect(busyPercent({ total: 1000, idle: 800, steal: 0 }, { total: 2000, idle: 1550, steal: 0 })).toBe(25)
  })

  it('works out steal from two /proc/stat readings', () => {
    expect(stealPercent({ total: 1000, idle: 0, steal: 10 }, { total: 3000, idle: 0, steal: 110 })).toBe(5)
    expect(stealPercent({ total: 1000, idle: 0, steal: 10 }, undefined)).toBeUndefined()
  })
})
