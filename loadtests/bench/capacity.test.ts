import { describe, expect, it } from 'vitest'
import {
  capacityGeneratorBound,
  commonHeldWindows,
  fanOutFloor,
  findCapacity,
  judgeWindow,
  heldP99Bound,
  HELD_P99_MS,
  ratedBounds,
} from './capacity'
import type { SocketWindow } from './types'
import type { ClientWindow } from './native-client'
import { MAX_LATENCY_MS, summarizeHistogram, type WindowCount } from './percentiles'

/** A client window from hand-made arrivals, each published inside it: [publishedAt, receivedAt, rated?]. */
function clientWindow(from: number, to: number, arrivals: Array<[number, number, boolean?]>): ClientWindow {
  const count = (rated: boolean): WindowCount => {
    const histogram = new Uint32Array(MAX_LATENCY_MS + 1)
    const kept = arrivals.filter(([, , isRated]) => (isRated ?? false) === rated)
    for (const [published, received] of kept) histogram[received - published]! += 1
    return { delivered: kept.length, latencyMs: summarizeHistogram(histogram) }
  }
  return {
    from,
    to,
    seconds: (to - from) / 1000,
    raw: count(false),
    rated: count(true),
    backlog: 0,
    clientCpuPercent: 30,
    socketErrors: 0,
  }
}

describe('latency histograms', () => {
  it('reports percentiles as the smallest millisecond covering the rank', () => {
    const histogram = new Uint32Array(1000)
    histogram[1] = 900
    histogram[10] = 90
    histogram[200] = 9
    histogram[900] = 1
    expect(summarizeHistogram(histogram)).toEqual({ samples: 1000, p50: 1, p99: 10, p999: 200, max: 900 })
    expect(summarizeHistogram(new Uint32Array(10)).p99).toBeNaN()
  })
})

describe('judging a window', () => {
  const subscribers = {
    raw: new Map([
      ['TRADE:btcusdt', 2],
      ['DETAIL:btcusdt', 1],
    ]),
    rated: new Map<string, number>(),
  }
  // 10 trades and 10 details published: 2 × 10 + 1 × 10 = 30 frames offered
  const published = { 'TRADE:btcusdt': 10, 'DETAIL:btcusdt': 10, 'KLINE:btcusdt:1min': 4 }
  const arrivals = (count: number, latency: number): Array<[number, number]> =>
    Array.from({ length: count }, (_, i) => [1000 + i * 30, 1000 + i * 30 + latency])

  it('holds with every offered frame delivered within 50 ms at p99', () => {
    const window = judgeWindow({
      rateScale: 0.5,
      client: clientWindow(1000, 2000, arrivals(30, 12)),
      published,
      subscribers,
      listRateMs: 0,
      serverCpuMicros: 60_000,
    })
    expect(window).toMatchObject({
      held: true,
      verdict: '',
      offeredPerSecond: 30,
      deliveredPerSecond: 30,
      deliveredShare: 1,
    })
    expect(window.serverCpuMicrosPerDelivery).toBe(2000)
    expect(window.serverCpuPercent).toBeCloseTo(6)
    // TRADE:btcusdt has the most subscribers (2): one of its frames takes 2 × 2000 µs to reach both
    expect(window.fanOutFloor).toEqual({
      topic: 'TRADE:btcusdt',
      subscribers: 2,
      microsPerDelivery: 2000,
      ms: 4,
    })
  })

  it('takes the fan-out floor from the most subscribed topic published in the window', () => {
    const raw = new Map([
      ['DETAIL:btcusdt', 3412],
      ['TRADE:btcusdt', 3000],
      ['DETAIL:ethusdt', 600],
    ])
    expect(fanOutFloor({ 'DETAIL:btcusdt': 1, 'DETAIL:ethusdt': 5 }, raw, 13.2)).toEqual({
      topic: 'DETAIL:btcusdt',
      subscribers: 3412,
      microsPerDelivery: 13.2,
      ms: (3412 * 13.2) / 1000,
    })
    // a topic with no publish in the window sends no frame: the next largest one sets the floor
    expect(fanOutFloor({ 'DETAIL:btcusdt': 0, 'TRADE:btcusdt': 2 }, raw, 10)?.topic).toBe('TRADE:btcusdt')
    expect(fanOutFloor({ 'DETAIL:btcusdt': 1 }, raw, undefined)).toBeUndefined()
    expect(fanOutFloor({ 'KLINE:btcusdt:1min': 3 }, raw, 10)).toBeUndefined()
    expect(fanOutFloor({}, raw, 10)).toBeUndefined()
  })

  it('does not hold below 99% delivered, nor with p99 above 50 ms', () => {
    const short = judgeWindow({
      rateScale: 1,
      client: clientWindow(1000, 2000, arrivals(29, 5)),
      published,
      subscribers,
      listRateMs: 0,
    })
    expect(short).toMatchObject({ held: false, verdict: '96.7% delivered' })
    const slow = judgeWindow({
      rateScale: 1,
      client: clientWindow(1000, 2000, arrivals(30, 51)),
      published,
      subscribers,
      listRateMs: 0,
    })
    expect(slow).toMatchObject({ held: false, verdict: 'p99 51 ms' })
    // no CPU read, no CPU per delivery: no floor either
    expect(slow.fanOutFloor).toBeUndefined()
  })

  it('measures the p99 bound over the fan-out floor: 50 ms of queueing past the last subscriber of one frame', () => {
    // 60 ms of CPU for 30 deliveries: 2000 µs each, and TRADE:btcusdt's 2 subscribers make a 4 ms floor
    const judged = (latency: number): SocketWindow =>
      judgeWindow({
        rateScale: 1,
        client: clientWindow(1000, 2000, arrivals(30, latency)),
        published,
        subscribers,
        listRateMs: 0,
        serverCpuMicros: 60_000,
      })
    expect(judged(53)).toMatchObject({ held: true, fanOutFloor: { ms: 4 } })
    expect(judged(55)).toMatchObject({
      held: false,
      verdict: 'p99 55 ms over 54 (50 above a fan-out floor of 4 ms)',
    })
    expect(heldP99Bound(undefined)).toBe(HELD_P99_MS)
  })

  it('does not hold a window in which nothing was published', () => {
    const empty = judgeWindow({
      rateScale: 1,
      client: clientWindow(1000, 2000, []),
      published: {},
      subscribers,
      listRateMs: 0,
    })
    expect(empty).toMatchObject({ held: false, verdict: 'nothing was published, p99 NaN ms' })
  })

  it('bounds list frames at a rate by the periods in the window, and flags a rate ignored', () => {
    expect(ratedBounds(20, 2000, 1000)).toEqual({ min: 1, max: 3 })
    expect(ratedBounds(1, 2000, 1000)).toEqual({ min: 0, max: 1 })
    const rated = { raw: subscribers.raw, rated: new Map([['DETAIL:ethusdt', 4]]) }
    const listArrivals: Array<[number, number, boolean]> = [
      ...Array.from({ length: 8 }, (_, i): [number, number, boolean] => [
        1100 + (i % 2) * 900,
        1200 + (i % 2) * 900,
        true,
      ]),
    ]
    const kept = judgeWindow({
      rateScale: 1,
      client: clientWindow(1000, 2999, [...arrivals(30, 5), ...listArrivals]),
      published: { ...published, 'DETAIL:ethusdt': 20 },
      subscribers: rated,
      listRateMs: 1000,
    })
    expect(kept.rated).toMatchObject({ rateMs: 1000, rateIgnored: false })
    expect(kept.held).toBe(true)
    const every = Array.from({ length: 80 }, (_, i): [number, number, boolean] => [
      1000 + i * 20,
      1005 + i * 20,
      true,
    ])
    const ignored = judgeWindow({
      rateScale: 1,
      client: clientWindow(1000, 2999, [...arrivals(30, 5), ...every]),
      published: { ...published, 'DETAIL:ethusdt': 20 },
      subscribers: rated,
      listRateMs: 1000,
    })
    expect(ignored.rated!.rateIgnored).toBe(true)
  })
})

describe('finding capacity', () => {
  const grid = [0.01, 0.02, 0.04, 0.08, 0.16]
  /** A system that holds every rate scale up to `limit`. */
  const system = (limit: number) => {
    const tried: number[] = []
    return {
      tried,
      measure: async (scale: number) => {
        tried.push(scale)
        return { rateScale: scale, held: scale <= limit, offeredPerSecond: scale * 100_000 }
      },
    }
  }

  it('walks up to the first failed step, then halves the gap geometrically', async () => {
    const { tried, measure } = system(0.05)
    const search = await findCapacity(grid, 1, 2, measure)
    // 0.04 held, 0.08 failed; then √(0.04·0.08) = 0.0566 fails, √(0.04·0.0566) = 0.0476 holds
    expect(tried).toEqual([0.02, 0.04, 0.08, 0.0566, 0.0476])
    expect(search.capacity!.rateScale).toBe(0.0476)
    expect(search.atTopOfRamp).toBe(false)
  })

  it('walks down from the start when the first step does not hold', async () => {
    const { tried, measure } = system(0.012)
    const search = await findCapacity(grid, 2, 1, measure)
    expect(tried).toEqual([0.04, 0.02, 0.01, 0.0141])
    expect(search.capacity!.rateScale).toBe(0.01)
  })

  it('reports no capacity when nothing holds, and "at least" when the top of the ramp held', async () => {
    expect((await findCapacity(grid, 1, 2, system(0.001).measure)).capacity).toBeNull()
    const top = await findCapacity(grid, 1, 2, system(1).measure)
    expect(top.capacity!.rateScale).toBe(0.16)
    expect(top.atTopOfRamp).toBe(true)
  })

  it('takes the held step with the highest offered rate, even when a noisy higher step failed before it', async () => {
    const results = new Map([
      [0.02, true],
      [0.04, false],
      [0.0283, true],
      [0.0336, true],
    ])
    const search = await findCapacity(grid, 1, 2, async (scale) => ({
      rateScale: scale,
      held: results.get(scale) ?? false,
      offeredPerSecond: scale * 1000,
    }))
    expect(search.capacity!.rateScale).toBe(0.0336)
  })
})

describe('comparing two systems', () => {
  it('pairs only rate scales both held', () => {
    const step = (rateScale: number, held: boolean) => ({ rateScale, held })
    const gateway = [step(0.02, true), step(0.03, true), step(0.045, true), step(0.07, false)]
    const floor = [step(0.02, true), step(0.03, false), step(0.045, true), step(0.07, true)]
    expect(commonHeldWindows(gateway, floor).map((pair) => pair.scale)).toEqual([0.02, 0.045])
    expect(commonHeldWindows(gateway, [])).toEqual([])
  })

  it('never pairs a window flagged generator-bound', () => {
    const step = (rateScale: number, generatorBound?: string) => ({ rateScale, held: true, generatorBound })
    const gateway = [step(0.02), step(0.03, 'generator at 85% of its core')]
    const floor = [step(0.02), step(0.03)]
    expect(commonHeldWindows(gateway, floor).map((pair) => pair.scale)).toEqual([0.02])
  })
})

describe('a capacity the generator may have set', () => {
  const step = (rateScale: number, held: boolean, server: number, client: number): SocketWindow =>
    ({
      rateScale,
      held,
      serverCpuPercent: server,
      clientCpuPercent: client,
      offeredPerSecond: rateScale * 1e5,
    }) as SocketWindow

  it('is flagged when the server had room at the step that did not hold', () => {
    const steps = [step(0.1, true, 60, 30), step(0.2, true, 80, 50), step(0.3, false, 70, 60)]
    expect(capacityGeneratorBound(steps, steps[1]!)).toBe(
      'at ×0.3, the step that did not hold: target at 70% of its core at capacity',
    )
  })

  it('is flagged when the generator was past its bound in the capacity window', () => {
    const capacity = { ...step(0.2, true, 95, 80), generatorBound: 'generator at 80% of its core' }
    expect(capacityGeneratorBound([capacity, step(0.3, false, 99, 60)], capacity)).toBe(
      'at ×0.2: generator at 80% of its core',
    )
  })

  it("is the server's when the server ran out of its core and the generator had room", () => {
    const steps = [step(0.2, true, 88, 50), step(0.3, false, 98, 60)]
    expect(capacityGeneratorBound(steps, steps[0]!)).toBeUndefined()
  })
})
