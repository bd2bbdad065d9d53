import { describe, expect, it } from 'vitest'
import { CAPACITY_COLUMNS } from './report-format'
import {
  againstFloor,
  checkTargets,
  generatorStalled,
  hostileVerdict,
  keepSeparateRuns,
  perFrameCosts,
  serverEnvNote,
  stepAbove,
  uploadsSection,
} from './results-md'
import type {
  BenchResult,
  CapacityReport,
  FedIdleReading,
  HostileReport,
  RestRow,
  SignedInUploadsReport,
  SocketWindow,
} from './types'

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

describe('the fan-out floor beside a p99', () => {
  const latencyMs = { samples: 1000, p50: 6, p99: 52, p999: 60, max: 70 }
  const floor = { topic: 'DETAIL:btcusdt', subscribers: 3412, microsPerDelivery: 13.24, ms: 45.17 }

  it('puts the p99 of a window beside its floor, and the p99 alone for a run without one', () => {
    expect(againstFloor(step({ latencyMs, fanOutFloor: floor }))).toBe(
      'p99 52 ms against a fan-out floor of 3,412 subscribers × 13.2 µs = 45 ms: one DETAIL:btcusdt frame reaches its last subscriber that long after its first, at any rate',
    )
    expect(againstFloor(step({ latencyMs }))).toBe('p99 52 ms')
  })

  it('names the floor of the step that did not hold when neither core was full', () => {
    const capacity = step({ rateScale: 0.0561, held: true, clientCpuPercent: 9, latencyMs })
    const failed = step({
      rateScale: 0.0627,
      held: false,
      clientCpuPercent: 9,
      serverCpuPercent: 45,
      latencyMs,
      fanOutFloor: floor,
    })
    // the ramp's last step is a refinement that held: the text is about the one above it that did not
    const report = {
      system: 'gateway (memory bus)',
      steps: [step({ rateScale: 0.07, held: false, clientCpuPercent: 10 }), failed, capacity],
      capacity,
      generatorBound: 'at ×0.0627, the step that did not hold: target at 45% of its core at capacity',
    } as CapacityReport
    expect(perFrameCosts(report)).toBe(
      'at ×0.0627 neither core was full (generator 9%, gateway (memory bus) 45%): the step failed its latency or delivery bound (p99 52 ms against a fan-out floor of 3,412 subscribers × 13.2 µs = 45 ms: one DETAIL:btcusdt frame reaches its last subscriber that long after its first, at any rate), so this capacity is not a CPU limit of either side',
    )
  })

  it('shows the floor in the capacity table, and "-" for a run from before it was recorded', () => {
    const capacity = step({ offeredPerSecond: 36_521, latencyMs, serverCpuMicrosPerDelivery: 13.24 })
    const report = { clients: 10_000, steps: [capacity], capacity, atTopOfRamp: false } as CapacityReport
    const header = CAPACITY_COLUMNS.map(([title]) => title)
    const column = header.indexOf('fan-out floor there')
    expect(column).toBe(header.indexOf('p99 there') + 1)
    const cells = (window: SocketWindow): string[] =>
      CAPACITY_COLUMNS.map(([, cell]) => cell({ ...report, capacity: window }))
    expect(cells({ ...capacity, fanOutFloor: floor })[column]).toBe('45 ms (3,412 × 13.2 µs)')
    expect(cells(capacity)[column]).toBe('-')
  })
})

describe('keepSeparateRuns', () => {
  const previous = `# Benchmark results

From an older run.

## The run

- old figures

## Signed-in uploads (a separate run, not part of the run above)

| row | old |

## Decisions by A/B (separate runs, not part of the run above)

| build | req/s |
| fastpath | 1,974 |
`

  it('keeps a separate run the new file does not render, after everything the run rendered', () => {
    const rendered = '# Benchmark results\n\nFrom the new run.\n\n## The run\n\n- new figures\n'
    const written = keepSeparateRuns(previous, rendered)
    expect(written.startsWith(rendered.trimEnd())).toBe(true)
    expect(written).not.toContain('old figures')
    expect(written).toContain('## Decisions by A/B (separate runs, not part of the run above)')
    expect(written).toContain('| fastpath | 1,974 |')
    expect(written).toContain('## Signed-in uploads (a separate run, not part of the run above)')
  })

  it('drops a separate run once the run renders a section of that name itself', () => {
    const rendered = '# Benchmark results\n\n## The run\n\n- new\n\n## Signed-in uploads\n\n| row | new |\n'
    const written = keepSeparateRuns(previous, rendered)
    expect(written).not.toContain('| row | old |')
    expect(written).toContain('| row | new |')
    expect(written.indexOf('## Signed-in uploads')).toBeLessThan(written.indexOf('## Decisions by A/B'))
  })

  it('writes the rendered file as it is when the old one holds no separate run', () => {
    const rendered = '# Benchmark results\n\n## The run\n'
    expect(keepSeparateRuns('', rendered)).toBe(rendered)
    expect(keepSeparateRuns('# Old\n\n## The run\n\n- old\n', rendered)).toBe(rendered)
  })
})

it('judges the signed-in uploads targets for the gateway, with the floor row and its figures beside', () => {
  const uploads = (ratio: number, after: number): SignedInUploadsReport => ({
    ok: true,
    connections: 10,
    uploadBytes: 5 * 2 ** 20,
    seconds: 10,
    statuses: { '200': 40 },
    healthzQuietMs: { samples: 100, p99: 10 },
    healthzLoadedMs: { samples: 100, p99: 10 * ratio },
    ratio,
    rssMb: { before: 100, peak: 150, after, afterSeconds: 60 },
  })
  const section = uploadsSection(uploads(5, 130), uploads(2, 104))
  expect(section).toContain(
    '| bare node proxy (the floor) | 10.0 ms | 20.0 ms | ×2.0 | 200 ×40 | 100 MB | 150 MB | 104 MB 60 s after |',
  )
  expect(section).toContain('| /healthz p99 at most 3× its quiet value | ×5.0 | **missed** | ×2.0 |')
  expect(section).toContain('| RSS 60 s after within 10% of before | +30% | **missed** | +4% |')
  expect(uploadsSection(uploads(2, 100), undefined)).toContain(
    '| /healthz p99 at most 3× its quiet value | ×2.0 | **met** | - |',
  )
})

describe('the hostile row when the load generator stalled', () => {
  const run = (figures: Partial<HostileReport>): HostileReport =>
    ({
      ok: true,
      hostileMs: { p50: 3, p99: 124, max: 134 },
      healthzMs: { samples: 500, p50: 0.1, p99: 3, max: 58 },
      ...figures,
    }) as HostileReport
  const quietGateway = { samples: 490, over20ms: 2, over50ms: 0 }

  it('is a stall of the generator when it held its own loop past the bound and the gateway never did', () => {
    expect(generatorStalled(run({ generatorLoopMaxMs: 66.3, gatewayLoop: quietGateway }))).toBe(true)
  })

  it('is judged when the gateway stalled too, or the generator stayed within the bound', () => {
    expect(
      generatorStalled(run({ generatorLoopMaxMs: 66.3, gatewayLoop: { ...quietGateway, over50ms: 1 } })),
    ).toBe(false)
    expect(generatorStalled(run({ generatorLoopMaxMs: 21.7, gatewayLoop: quietGateway }))).toBe(false)
  })

  it('is met within the bounds whatever the generator did, and not judged only past them', () => {
    const stalled = { generatorLoopMaxMs: 66.3, gatewayLoop: quietGateway }
    expect(hostileVerdict(run(stalled))).toBeUndefined()
    expect(hostileVerdict(run({ ...stalled, hostileMs: { p50: 3, p99: 30, max: 45 } }))).toBe(true)
    expect(hostileVerdict(run({ ...stalled, gatewayLoop: { ...quietGateway, over50ms: 2 } }))).toBe(false)
    expect(hostileVerdict(run({}))).toBe(false)
  })

  it('is judged as before for a run that recorded neither side', () => {
    expect(generatorStalled(run({}))).toBe(false)
    expect(generatorStalled(run({ generatorLoopMaxMs: 66.3 }))).toBe(false)
  })
})

describe('the one-at-a-time overhead target of the REST phase', () => {
  /** A run of the REST phase alone: the gateway's and the floor's overhead over the sandbox, in ms. */
  const judged = (gateway: number, floor?: number) => {
    const row = (target: string, overheadP50: number): RestRow =>
      ({ target, ok: true, serialLatencyMs: { p50: 0.5, overheadP50, direct: { p50: 0.2 } } }) as RestRow
    const rest = [row('gateway proxy (uncached)', gateway)]
    if (floor !== undefined) rest.push(row('bare node proxy', floor))
    const result = { socket: [], capacity: [], rest, systemScenarios: {} } as unknown as BenchResult
    return checkTargets(result).find((check) =>
      check.target.startsWith('proxied uncached call: p50 overhead'),
    )!
  }

  it('names the floor beside a missed bound, as every missed target does', () => {
    expect(judged(0.338, 0.24)).toMatchObject({
      met: false,
      why: 'the floor, the bare node proxy, adds 0.240 ms in the same kind of pairs',
    })
    expect(judged(0.338).why).toBe('the floor, the bare node proxy, was not measured one at a time')
  })

  it('gives no reason for a bound that holds', () => {
    expect(judged(0.25, 0.24)).toMatchObject({ met: true, why: undefined })
  })
})

describe('the targets against the pre-framed floor and the idle RSS bound', () => {
  const latencyMs = { samples: 1000, p50: 10, p99: 60, p999: 70, max: 80 }
  const held = (serverCpuMicrosPerDelivery: number) =>
    step({ held: true, serverCpuMicrosPerDelivery, latencyMs })
  /** Three rounds at one rate: the gateway's and the pre-framed server's CPU per delivery, in µs. */
  const rounds = (gateway: number[], floor: number[]) => ({
    clients: 10_000,
    rates: [0.135],
    ratesFrom: 'gateway (memory bus)',
    systems: [
      { system: 'gateway (memory bus)', windows: [gateway.map(held)], errors: [] },
      { system: 'bare ws pre-framed', windows: [floor.map(held)], errors: [] },
    ],
  })
  const idleRow = (system: string, rssBaselineMb: number) => ({
    system,
    clients: 1000,
    ok: true,
    rssBaselineMb,
  })
  const judged = (figures: Partial<BenchResult>, start: string) => {
    const result = {
      socket: [],
      capacity: [],
      rest: [],
      systemScenarios: {},
      ...figures,
    } as unknown as BenchResult
    return checkTargets(result).find((check) => check.target.startsWith(start))!
  }

  it("judges CPU per delivery at 1.02× the pre-framed server's in the same rounds, naming its figure when missed", () => {
    const cpu = (gateway: number[]) =>
      judged(
        { rounds: rounds(gateway, [10.5, 10.9, 11.62]) },
        'CPU per delivery: gateway (memory bus) ≤ 1.02× bare ws pre-framed',
      )
    expect(cpu([11.21, 11.68, 11.32])).toMatchObject({
      met: false,
      why: 'bare ws pre-framed, the floor, 10.90 (10.50–11.62) µs per delivery in the same rounds',
    })
    expect(cpu([10.6, 11.0, 11.5])).toMatchObject({ met: true, why: undefined })
  })

  it("judges RSS at start on most of every start, the ramp's and the rounds', with the pre-framed server beside it", () => {
    const idle = (ramp: number[], inRounds: number[]) => {
      const round = (system: string, idleRssMb: number[]) => ({ system, windows: [], idleRssMb, errors: [] })
      return judged(
        {
          socket: [
            ...ramp.map((rss) => idleRow('gateway (memory bus)', rss)),
            idleRow('gateway (redis bus)', 120),
            idleRow('bare ws pre-framed', 57.9),
          ] as BenchResult['socket'],
          rounds: {
            clients: 10_000,
            rates: [0.135],
            ratesFrom: '',
            systems: [round('gateway (memory bus)', inRounds), round('bare ws pre-framed', [56.1, 58.4])],
          },
        },
        'gateway (memory bus): RSS at start',
      )
    }
    expect(idle([86.2], [79.5, 84])).toMatchObject({
      met: false,
      measured:
        '84.0 (79.5–86.2) MiB over 3 starts, 1 within the bound; bare ws pre-framed, the floor, 57.9 (56.1–58.4) MiB over 3 starts',
      why: 'bare ws pre-framed, the floor, idles at 57.9 (56.1–58.4) MiB: Node and ws with nothing of the gateway',
    })
    // half the starts within is not most of them, whatever the lower middle of four says
    expect(idle([76.1], [85.6, 76.1, 85.8])).toMatchObject({ met: false })
    expect(idle([76.1], [85.6, 76.1, 79.9])).toMatchObject({ met: true, why: undefined })
    expect(idle([79.5], [])).toMatchObject({ met: true, why: undefined })
    expect(idle([], [])).toMatchObject({ met: undefined, measured: '-' })
  })

  /** The fed idle phase with these systems' readings, each reading's other figures filled in. */
  const fedIdle = (
    systems: Record<string, Array<Partial<FedIdleReading>>>,
    errors: Record<string, string[]> = {},
  ): Partial<BenchResult> => ({
    fedIdle: {
      rateScale: 1,
      seconds: 60,
      heapReadings: 5,
      systems: Object.entries(systems).map(([system, readings]) => ({
        system,
        readings: readings.map((reading) => ({
          rssMb: 100,
          liveHeapMb: 14,
          framesPerSecond: 2100,
          ...reading,
        })),
        errors: errors[system] ?? [],
      })),
    },
  })

  it("judges idle RSS on the starts fed at the scenario's rates, the pre-framed server fed alike beside it", () => {
    const rss = (values: number[]) => values.map((rssMb) => ({ rssMb }))
    const fed = (gateway: number[], floor: number[]) =>
      judged(
        fedIdle(
          {
            'gateway (memory bus)': rss(gateway),
            'bare ws pre-framed': rss(floor),
            'gateway (redis bus)': rss([121.4]),
          },
          { 'gateway (redis bus)': ['start 2: exited'] },
        ),
        'gateway (memory bus): idle RSS',
      )
    expect(fed([114.7, 79.2], [58.3, 60.1])).toMatchObject({
      target:
        "gateway (memory bus): idle RSS ≤ 80 MiB in most of its starts, no sockets, its feed ticking at the scenario's rates for 60 s",
      met: false,
      measured:
        '114.7, 79.2 MiB, 1 within the bound; gateway (redis bus) 121.4 MiB; bare ws pre-framed, the floor, 58.3, 60.1 MiB',
      why: 'bare ws pre-framed, the floor, fed the same frames, holds 58.3, 60.1 MiB',
    })
    expect(fed([114.7, 122.7], [84.1, 79.9])).toMatchObject({
      why: 'bare ws pre-framed, the floor, fed the same frames, holds 84.1, 79.9 MiB',
    })
    expect(fed([114.7, 122.7], [84.1, 85.2])).toMatchObject({
      why: 'bare ws pre-framed, the floor, fed the same frames, holds 84.1, 85.2 MiB: above the bound before any gateway code runs',
    })
    expect(fed([78.1, 79.2, 83], [58.3])).toMatchObject({ met: true, why: undefined })
    expect(fed([], [58.3])).toMatchObject({ met: undefined, measured: '-' })
  })

  it('judges RSS per socket against the pre-framed server, the leanest floor, plain ws.send beside it', () => {
    const half = (system: string, rssPerConnectionKb: number) => ({
      system,
      clients: 10_000,
      steps: [],
      half: { rssPerConnectionKb, heapPerConnectionKb: 5.6 },
    })
    const perSocket = (gateway: number) =>
      judged(
        {
          capacity: [
            half('gateway (memory bus)', gateway),
            half('bare ws pre-framed', 9.6),
            half('bare ws', 12.4),
          ] as unknown as BenchResult['capacity'],
        },
        'gateway (memory bus): RSS per socket',
      )
    expect(perSocket(9.8)).toMatchObject({
      met: false,
      measured:
        '9.8 KiB at half capacity, 10,000 sockets (heap 5.6 KiB); bare ws pre-framed, the floor, 9.6 KiB; bare ws 12.4 KiB',
      why: 'bare ws pre-framed, the floor, 9.6 KiB per socket at its own half capacity: above the bound before any gateway code runs',
    })
    expect(perSocket(5.9)).toMatchObject({ met: true, why: undefined })
  })

  it("judges the live heap of the same fed starts against 15 MiB, the floor's beside it", () => {
    const live = (values: number[]) => values.map((liveHeapMb) => ({ liveHeapMb }))
    const heap = (gateway: number[], floor: number[]) =>
      judged(
        fedIdle({ 'gateway (memory bus)': live(gateway), 'bare ws pre-framed': live(floor) }),
        'gateway (memory bus): idle live heap',
      )
    expect(heap([15.31, 14.87, 15.02], [4.61, 4.7])).toMatchObject({
      met: false,
      measured:
        '15.31, 14.87, 15.02 MiB, 1 within the bound; gateway (redis bus) not measured; bare ws pre-framed, the floor, 4.61, 4.70 MiB',
      why: 'bare ws pre-framed, the floor, fed the same frames, holds 4.61, 4.70 MiB',
    })
    expect(heap([14.87, 14.95], [4.61])).toMatchObject({ met: true, why: undefined })
  })

  it('says what the pre-framed floor held of Socket.IO beside a missed bound against it, and below the bound when so', () => {
    const capacity = (system: string, offeredPerSecond: number) =>
      ({
        system,
        steps: [],
        capacity: step({ held: true, offeredPerSecond, rateScale: 0.1 }),
      }) as unknown as CapacityReport
    const socketIoRedis = (floorPerSecond: number) =>
      judged(
        {
          busyBeforePercent: 1,
          capacity: [
            capacity('gateway (memory bus)', 113_432),
            capacity('bare ws pre-framed', floorPerSecond),
            capacity('socket.io (redis adapter), reliable emits', 47_050),
          ],
        },
        'held-rate capacity: gateway (memory bus) ≥ 2.5× Socket.IO Redis adapter',
      )
    // 113,432 / 47,050 = 2.41×, under 2.5×; the floor's 107,272 is 2.28× of it, under the bound too
    expect(socketIoRedis(107_272)).toMatchObject({ met: false })
    expect(socketIoRedis(107_272).why).toMatch(
      /^bare ws pre-framed, the floor, held 2\.28× of it: below the bound before any gateway code runs; measured beside it: /,
    )
    // a floor above the bound is named without the remark: the gap is then the gateway's own
    expect(socketIoRedis(120_000).why).toMatch(
      /^bare ws pre-framed, the floor, held 2\.55× of it; measured beside it: /,
    )
  })
})

it('names the ramp step above a capacity that decided it, and nothing for a capacity at the top of its ramp', () => {
  const held = step({ rateScale: 0.221, held: true, offeredPerSecond: 135_627 })
  const above = step({
    rateScale: 0.245,
    held: false,
    offeredPerSecond: 152_403,
    serverCpuPercent: 99,
    verdict: 'p99 75 ms over 72 (50 above a fan-out floor of 22 ms)',
  })
  const report = { system: 'gateway (redis bus)', steps: [held, above], capacity: held } as CapacityReport
  expect(stepAbove(report)).toBe(
    "gateway (redis bus)'s step above, 152,403/s at ×0.245, did not hold (p99 75 ms over 72 (50 above a fan-out floor of 22 ms)) with its core at 99%",
  )
  expect(stepAbove({ ...report, steps: [held] })).toBeUndefined()
})

describe("the Processes line's environment", () => {
  it('names what every server under test started with, and nothing for a run from before it was recorded', () => {
    expect(serverEnvNote({ MALLOC_TRIM_THRESHOLD_: '1048576' })).toContain(
      'gateway and baselines alike, started with `MALLOC_TRIM_THRESHOLD_=1048576`',
    )
    expect(serverEnvNote(undefined)).toBe('')
    expect(serverEnvNote({})).toBe('')
  })
})
