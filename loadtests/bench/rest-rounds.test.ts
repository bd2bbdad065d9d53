import { describe, expect, it } from 'vitest'
import { combineRestWindows } from './rest-rounds'
import type { RestWindow } from './types'
import { rangeText } from './report-format'

const window = (overrides: Partial<RestWindow>): RestWindow => ({
  pinned: true,
  seconds: 3,
  requests: 3000,
  non2xx: 0,
  errors: 0,
  cpuMicros: 150_000,
  latencyMs: { p50: 5, p90: 8, p99: 12, p999: 20, max: 30 },
  ...overrides,
})

describe('REST rounds', () => {
  const row = { target: 'gateway proxy (uncached)', ok: false }

  it("reports the median round's req/s and CPU per request, and keeps every round for same-round ratios", () => {
    const combined = combineRestWindows(row, [
      window({ seconds: 3, requests: 3000, cpuMicros: 300_000 }),
      window({ seconds: 3, requests: 9000, cpuMicros: 300_000 }),
      window({
        seconds: 3,
        requests: 6000,
        cpuMicros: 300_000,
        generatorBound: 'generator at 80% of its core',
      }),
    ])
    expect(combined.ok).toBe(true)
    expect(combined.requestsPerSecond).toBe(2000)
    expect(combined.roundsPerSecond).toEqual([1000, 3000, 2000])
    expect(combined.serverCpuMicrosPerRequest).toBe(50)
    expect(combined.rounds!.map((round) => round.generatorBound)).toEqual([
      undefined,
      undefined,
      'generator at 80% of its core',
    ])
  })

  it('reports the median round of each latency percentile', () => {
    const combined = combineRestWindows(row, [
      window({ latencyMs: { p50: 9, p90: 9, p99: 90, p999: 99, max: 99 } }),
      window({ latencyMs: { p50: 1, p90: 1, p99: 10, p999: 11, max: 11 } }),
      window({ latencyMs: { p50: 5, p90: 5, p99: 50, p999: 55, max: 55 } }),
    ])
    expect(combined.latencyMs).toEqual({ p50: 5, p90: 5, p99: 50, p999: 55, max: 55 })
  })

  it('fails the row when any round had a non-2xx answer, and is unpinned if any round was', () => {
    const combined = combineRestWindows(row, [window({}), window({ non2xx: 2, pinned: false })])
    expect(combined.ok).toBe(false)
    expect(combined.pinned).toBe(false)
    expect(combined.error).toBe('6000 requests, 2 not 2xx, 0 errors')
  })

  it("reports the median round's one-at-a-time figures, every round's overhead beside, not the first round's alone", () => {
    const serial = (overheadP50: number, p50: number) => ({
      requests: 500,
      shed: 1,
      p50,
      p90: p50 * 2,
      p99: p50 * 3,
      direct: { p50: p50 - overheadP50, p90: 1, p99: 2 },
      overheadP50,
    })
    const combined = combineRestWindows(row, [
      window({ serialLatencyMs: serial(0.659, 0.943) }),
      window({ serialLatencyMs: serial(0.122, 0.4) }),
      window({ serialLatencyMs: serial(0.338, 0.6) }),
    ])
    expect(combined.serialLatencyMs).toMatchObject({
      requests: 1500,
      shed: 3,
      p50: 0.6,
      p90: 1.2,
      overheadP50: 0.338,
      roundsOverheadP50: [0.659, 0.122, 0.338],
    })
    // a target measured without a direct call (no upstream) has no overhead to combine
    const plain = combineRestWindows(row, [
      window({ serialLatencyMs: { requests: 500, shed: 0, p50: 0.25, p90: 0.5, p99: 1 } }),
      window({ serialLatencyMs: { requests: 500, shed: 0, p50: 0.75, p90: 1, p99: 2 } }),
    ])
    // of an even count, the lower middle round's, as every median of the harness: a figure a round had
    expect(plain.serialLatencyMs).toEqual({ requests: 1000, shed: 0, p50: 0.25, p90: 0.5, p99: 1 })
    expect(combineRestWindows(row, [window({})]).serialLatencyMs).toBe(undefined)
  })

  it('leaves CPU out when a round could not read it', () => {
    expect(
      combineRestWindows(row, [window({}), window({ cpuMicros: undefined })]).serverCpuMicrosPerRequest,
    ).toBe(undefined)
  })

  it('shows the slowest and fastest round', () => {
    expect(rangeText([6857.2, 4445, 5989])).toBe('4,445–6,857')
    expect(rangeText([4445])).toBe('4,445')
    expect(rangeText([])).toBe('-')
  })
})
