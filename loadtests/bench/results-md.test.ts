import { expect, it } from 'vitest'
import { perFrameCosts } from './results-md'
import type { CapacityReport, SocketWindow } from './types'

const step = (figures: Partial<SocketWindow>): SocketWindow =>
  ({
    rateScale: 0.2,
    deliveredPerSecond: 100_000,
    clientCpuPercent: 90,
    serverCpuPercent: 85,
    ...figures,
  }) as SocketWindow

it('names the CPU per frame of both sides when a capacity is generator-bound, and nothing otherwise', () => {
  const report = {
    system: 'gateway (memory bus)',
    steps: [step({ rateScale: 0.1, deliveredPerSecond: 50_000 }), step({})],
    generatorBound: 'generator at 90% of its core',
  } as CapacityReport
  // 90% of a core over 100,000 frames a second is 9 µs a frame; 85% is 8.5 µs
  expect(perFrameCosts(report)).toContain('at ×0.2 the generator spent 9.0 µs of its core per frame it read')
  expect(perFrameCosts(report)).toContain('gateway (memory bus) 8.5 µs of its own per frame it sent')
  expect(perFrameCosts({ ...report, generatorBound: undefined })).toBeUndefined()
})

it('says neither core was full when a capacity step failed on latency with room on both sides', () => {
  const report = {
    system: 'bare ws corked',
    steps: [
      step({
        clientCpuPercent: 9,
        serverCpuPercent: 45,
        latencyMs: { samples: 1000, p50: 5, p99: 71, p999: 90, max: 120 },
      }),
    ],
    generatorBound: 'target at 45% of its core at capacity',
  } as CapacityReport
  expect(perFrameCosts(report)).toBe(
    'at ×0.2 neither core was full (generator 9%, bare ws corked 45%): the step failed its latency or delivery bound (p99 71 ms), so this capacity is not a CPU limit of either side',
  )
})
