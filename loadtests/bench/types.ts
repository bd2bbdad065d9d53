/**
 * The shapes of a bench run: its options and every figure it records. The harness, the stdout
 * report and RESULTS.md all read them from here.
 */
import type { ConnectReport, StormReport } from './native-client'
import type { LatencySummary } from './percentiles'
import type { Scenario } from './scenario'
import type { SerialLatency } from './serial-latency'
import type { LoadRun } from './wrk'

/** A rate scale the reference system held, and the length of its window there. */
export interface ReferenceRate {
  scale: number
  ms: number
}

export interface BenchOptions {
  quick: boolean
  /** Each count is one point at the scenario's full rates; the largest also gets the capacity ramp. */
  clientCounts: number[]
  warmupMs: number
  measureMs: number
  /** Multipliers of every tick rate, tried upwards from `rampStart` until one does not hold. */
  rampGrid: number[]
  rampStart: number
  /** Halvings of the gap between the last held and the first failed step. */
  rampRefinements: number
  rampSettleMs: number
  rampMeasureMs: number
  /** Interleaved rounds of the systems compared at the same rates (each a fresh server and fleet). */
  socketRounds: number
  roundMeasureMs: number
  /** The idle servers fed at the scenario's rates (`fed-idle.ts`): starts of each system, seconds each, live-heap readings. */
  fedIdle: { starts: number; seconds: number; heapReadings: number }
  /** Half-second windows a backlog may take to drain before the next window (counted, not timed). */
  drainWindows: number
  /** measured seconds per REST target, split evenly over the rounds */
  restSeconds: number
  /** times each REST target is started and measured, interleaved with the others */
  restRounds: number
  restConnections: number
  /** The parts of a run to do, in their fixed order: a smoke test runs them side by side. */
  phases: BenchPhase[]
  /** Requests sent one at a time for the unqueued latency figure. */
  serialRequests: number
  /** the proxied call quiet and beside busy loops (`proxied-contention.ts`) */
  proxied: ProxiedContentionOptions
  /** How long the hostile-bodies row sends its bodies. */
  hostileSeconds: number
  /** How long the signed-in uploads row sends (and probes quietly before), and how long it waits after. */
  uploadsSeconds: number
  uploadsSettleSeconds: number
  /** how long the uploads row waits at most for the gateway to settle before and after the burst */
  uploadsSettleLimitSeconds: number
  installMissing: boolean
  /**
   * Pin the generator and every server under test to cores of their own (the default). The smoke
   * test turns it off: its runs go side by side, and pinned they would all share the same two cores.
   */
  pin: boolean
  /** Only systems and targets whose names include one of these. */
  only: string[] | undefined
  /** A Redis to use for the Redis systems; none: the bench starts its own on the generator's core. */
  redisUrl: string | undefined
  outFile: string
  /** Where to write RESULTS.md; full runs default to loadtests/RESULTS.md, quick runs write none. */
  resultsMd: string | undefined
  scenario: Scenario
}

/**
 * One measurement window of a socket system: frames counted by their publish time inside it,
 * the offered rate worked out from what the tick feed published in it times each topic's
 * subscribers, and whether the system held it.
 */
export interface SocketWindow {
  rateScale: number
  /** Publish times (epoch ms) the window covers. */
  from: number
  to: number
  seconds: number
  /** Every-tick frames offered per second: frames published in the window × subscribers of their topic. */
  offeredPerSecond: number
  deliveredPerSecond: number
  /** Every-tick frames delivered / offered. */
  deliveredShare: number
  latencyMs: LatencySummary
  /** Frames of the market list's rated subscriptions, when the scenario asks for a rate. */
  rated?: RatedFigures
  /** Frames that arrived during the window but were published before it (a backlog draining). */
  backlogFrames: number
  serverCpuPercent?: number
  /** Server CPU in the window per frame published in it and delivered (every-tick and rated). */
  serverCpuMicrosPerDelivery?: number
  /**
   * The most subscribed topic published in the window times the server's CPU per delivery there:
   * how late one of its frames reaches its last subscriber, written one after another, at any rate.
   * Absent in runs from before it was recorded.
   */
  fanOutFloor?: FanOutFloor
  clientCpuPercent: number
  /**
   * The load generator's longest passes over its ready sockets in the window (p99 and max, ms): a
   * frame that arrives during one waits that long, whichever system sent it.
   */
  clientLoopDelayMs?: { p99: number; max: number }
  socketErrors: number
  /**
   * Why the load generator may have limited this window (see generator-bound.ts); such a window
   * enters no ratio.
   */
  generatorBound?: string
  /** Sockets open during the window, for CPU per socket-second. */
  sockets?: number
  /** p99 ≤ 50 ms over the fan-out floor and ≥ 99% delivered (and rated frames within their rate's bound). */
  held: boolean
  /** Why it did not hold, in words; empty when it held. */
  verdict: string
}

/** One frame of the hottest topic written to each of its subscribers in turn. */
export interface FanOutFloor {
  topic: string
  /** Every-tick subscribers of the topic. */
  subscribers: number
  /** The window's server CPU per delivery. */
  microsPerDelivery: number
  /** subscribers × µs per delivery, in ms. */
  ms: number
}

export interface RatedFigures {
  rateMs: number
  deliveredPerSecond: number
  /** The fewest and most frames the rate allows for what was published (see `ratedBounds`). */
  minPerSecond: number
  maxPerSecond: number
  latencyMs: LatencySummary
  /** More frames than the rate allows: the system sent every tick instead. */
  rateIgnored: boolean
}

export interface SocketRow {
  system: string
  clients: number
  ok: boolean
  error?: string
  pinned?: boolean
  connect?: ConnectReport
  /** Time until every socket had its first frame after the initial subscribe. */
  firstFrame?: { ms: number; missing: number }
  /** The window at the scenario's full rates; not held means it is an overload row. */
  window?: SocketWindow
  rssBaselineMb?: number
  /** RSS grown per open socket over the idle baseline */
  rssPerConnectionKb?: number
  /** the whole RSS per open socket at this count, the idle base included */
  rssTotalPerConnectionKb?: number
}

/** The largest client count's ramp: the tick rate raised step by step until a step does not hold. */
export interface CapacityReport {
  system: string
  clients: number
  /** Every step measured, in order (a step measured twice keeps its second window). */
  steps: SocketWindow[]
  /** The held step with the highest offered rate: the system's capacity. None: no step held. */
  capacity: SocketWindow | null
  /**
   * Why the capacity may be the load generator's limit rather than the server's: the generator over
   * 70% of its core, or the server under 90% of its own, at the capacity or at the step above it that
   * did not hold. Such a capacity enters no ratio.
   */
  generatorBound?: string
  /** Capacity was the highest step tried, so the real capacity may be higher. */
  atTopOfRamp: boolean
  /** A window at half the capacity's rate scale: latency, memory and the storm are judged here. */
  half?: SocketWindow & { rssPerConnectionKb?: number; heapPerConnectionKb?: number }
  /**
   * Windows at the rate scales the reference system (the first) held and this one had not measured,
   * lowest first, up to the first that does not hold: more rates at which two systems can be compared.
   */
  atReferenceRates?: SocketWindow[]
  /** All sockets dropped at once at half capacity, reconnecting with back-off and full jitter. */
  storm?: StormRow
  /** The same with the web client's fixed reconnect interval (gateway systems only). */
  stormFixed?: StormRow
  error?: string
}

/** A reconnect storm with the server's peak CPU and, on a Redis bus, the SUBSCRIBEs it took. */
export interface StormRow extends StormReport {
  peakServerCpuPercent?: number
  /** Redis SUBSCRIBE calls during the storm and the system's channels after it (Redis systems only). */
  bus?: { subscribeCommands: number; channels: number; topics: number }
}

export interface RestRow {
  target: string
  note?: string
  ok: boolean
  unavailable?: string
  error?: string
  pinned?: boolean
  /** the median round's */
  requestsPerSecond?: number
  /** each round's own rate, to show how much the machine wandered */
  roundsPerSecond?: number[]
  /** each round's figures, in round order, for same-round ratios */
  rounds?: RestRound[]
  latencyMs?: { p50: number; p90: number; p99: number; p999: number; max: number }
  errors?: number
  non2xx?: number
  serverCpuMicrosPerRequest?: number
  /** One request at a time over one connection: the latency without queueing, to 0.001 ms. */
  serialLatencyMs?: SerialLatency
  /** One answer's body as sent (not decompressed) and its content-encoding. */
  answer?: { bytes: number; encoding: string }
}

/**
 * The socket ramps, the interleaved socket rounds, the REST rounds with the hostile bodies, and the
 * signed-in uploads row.
 */
export const BENCH_PHASES = ['sockets', 'rounds', 'idle', 'rest', 'proxied', 'uploads'] as const
export type BenchPhase = (typeof BENCH_PHASES)[number]

/** One round of a REST target: its rate, CPU per request and both sides' CPU. */
export interface RestRound {
  requestsPerSecond: number
  cpuMicrosPerRequest?: number
  generatorCpuPercent?: number
  targetCpuPercent?: number
  /** Why the round may be the generator's limit; such a round enters no ratio. */
  generatorBound?: string
}

/** One target's figures from one round: started, warmed, measured for one window, stopped. */
export interface RestWindow
  extends
    Pick<RestRound, 'generatorCpuPercent' | 'targetCpuPercent' | 'generatorBound'>,
    Pick<LoadRun, 'seconds' | 'requests' | 'non2xx' | 'errors' | 'latencyMs'> {
  pinned: boolean
  cpuMicros?: number
  /** the upstream's CPU over the same run, where the plan named its process */
  upstreamCpuMicros?: number
  serialLatencyMs?: SerialLatency
  answer?: RestRow['answer']
}

/** Hostile bodies: the worst body each JSON call accepts, sent over 10 connections while /healthz is timed. */
export interface HostileReport {
  ok: boolean
  error?: string
  connections: number
  seconds: number
  /** Per call: the body size sent and the status it got. */
  calls: Array<{ call: string; path: string; shape: string; bytes: number; statuses: Record<string, number> }>
  requests: number
  /**
   * The schedule's rate, requests a second: OFFERED_SHARE of the rate answered back to back in the
   * warm-up; absent in results from before the row was sent on a schedule.
   */
  offeredPerSecond?: number
  requestsPerSecond: number
  /** Each hostile JSON request, from its place in the schedule to the full answer (ms). */
  hostileMs: { p50: number; p99: number; max: number }
  /** The 5 MiB uploads sent among them, with and without a session (ms); absent in older results. */
  uploads?: { requests: number; p50: number; p99: number; max: number }
  /** /healthz one at a time over its own connection meanwhile (ms). */
  healthzMs: { samples: number; p50: number; p99: number; max: number }
  serverCpuPercent?: number
  /** the load generator's CPU over the span, % of one core; absent in older results */
  generatorCpuPercent?: number
  /**
   * Where a stall was, the gateway's side: its own 10 ms loop timer over the span
   * (`gateway_event_loop_delay_seconds`), how many runs came more than 20 and 50 ms after the last;
   * absent in older results or when /metrics did not say.
   */
  gatewayLoop?: LoopGaps
  /**
   * The gateway's own time for each answer over the span (`gateway_http_request_duration_seconds`, every
   * route: from reading the request to writing the answer), how many took more than 50 ms; absent in older
   * results or when /metrics did not say.
   */
  gatewayAnswers?: GatewayAnswers
  /** and the generator's side: its own event loop's longest delay over the span (ms); absent in older results */
  generatorLoopMaxMs?: number
}

/** Answers over a span, and how many the gateway took more than 50 ms over itself. */
export interface GatewayAnswers {
  answers: number
  over50ms: number
}

/** Runs of a 10 ms timer over a span, and how many of them came late by more than a bound. */
export interface LoopGaps {
  samples: number
  over20ms: number
  over50ms: number
}

/** Signed-in uploads: /healthz p99 while 10 users each send 5 MiB uploads, and the gateway's RSS. */
export interface SignedInUploadsReport {
  ok: boolean
  error?: string
  connections: number
  /** each upload's body, boundaries and all */
  uploadBytes: number
  /** the quiet window and the loaded one, each this long */
  seconds: number
  /** how the uploads were answered: 200, 503 past the instance's bound, `error` for a dropped one */
  statuses: Record<string, number>
  /** /healthz one at a time on the same gateway just before, nothing else sent (ms) */
  healthzQuietMs: { samples: number; p99: number }
  /** /healthz one at a time while the uploads were sent (ms) */
  healthzLoadedMs: { samples: number; p99: number }
  /** loaded p99 over quiet p99 */
  ratio: number
  /**
   * the gateway's RSS before the uploads, the most while they were sent, and `afterSeconds` after (MB);
   * before and after each read once settled (a full collection, then steady readings), `settled` false
   * where the wait's limit came first
   */
  rssMb: {
    before: number
    peak: number
    after: number
    afterSeconds: number
    settled?: { before: boolean; after: boolean }
  }
}

export interface BenchResult {
  runId: string
  startedAt: string
  command: string
  /** Wall time of the whole run, in seconds. */
  durationSeconds?: number
  machine: { cpuModel: string; cores: number; memoryGb: number; node: string; kernel: string }
  /** 1-minute load average before and after the run: other work on the machine skews every figure. */
  loadAverage: { start: number; end: number }
  /** percent of all cores busy in the 2 s before the run began */
  busyBeforePercent?: number
  /** percent of CPU time the hypervisor took for other guests during the run */
  stealPercent?: number
  pinning: { client: string; server: string } | 'unavailable'
  /** each baseline ran built to JavaScript under plain Node; absent in runs from before, which ran them under tsx */
  baselinesBuilt?: true
  /** the environment every Node server under test, gateway and baselines alike, started with beyond its defaults; absent in runs from before */
  serverEnv?: Record<string, string>
  options: Omit<BenchOptions, 'outFile' | 'resultsMd'>
  /** Each system's scenario where it differs from the run's (the variants). */
  systemScenarios: Record<string, { listRate: number; depth: boolean }>
  socket: SocketRow[]
  capacity: CapacityReport[]
  /** The systems compared at the same rates in interleaved rounds. */
  rounds?: SocketRounds
  /** idle servers, no socket, their feed at the scenario's rates (absent in runs from before it was read) */
  fedIdle?: FedIdleReport
  redis?: { url: string; own: boolean; pinned: boolean }
  phaseSeconds?: Record<string, number>
  rest: RestRow[]
  hostile?: HostileReport
  uploads?: SignedInUploadsReport
  /** the same uploads through the proxy floor (`bare node proxy`), which has no /metrics */
  uploadsFloor?: SignedInUploadsReport
  /** the proxied call quiet and beside busy loops, same rounds */
  proxied?: ProxiedContentionReport
}

/**
 * Systems measured at the same rate scales, round after round, each round every system in turn on a
 * fresh server and fleet: ratios come only from windows of one round.
 */
export interface SocketRounds {
  clients: number
  /** The rate scales every system was measured at, lowest first. */
  rates: number[]
  /** Why these rates (from which system's ramp). */
  ratesFrom: string
  systems: Array<{
    system: string
    /** windows[rateIndex][round]; undefined where the round failed */
    windows: Array<Array<SocketWindow | undefined>>
    /** each round's fresh start: RSS before any socket, MiB (absent in runs from before it was read) */
    idleRssMb?: number[]
    errors: string[]
  }>
}

/** One fresh start of a system left idle with its feed ticking: what it holds and spends then. */
export interface FedIdleReading {
  rssMb: number
  /** the heap left in use after a full collection, the least of `fedIdle.heapReadings` readings */
  liveHeapMb: number
  /** of one core, over the idle span */
  cpuPercent?: number
  /** frames the feed published a second over the span */
  framesPerSecond: number
}

export interface FedIdleReport {
  /** the feed's rate scale over the span (1: the scenario's own rates) */
  rateScale: number
  /** how long each start was fed before its reading */
  seconds: number
  /** live-heap readings per start, the least kept */
  heapReadings: number
  systems: Array<{ system: string; readings: FedIdleReading[]; errors: string[] }>
}

/** The proxied row's two conditions: nothing else running, and a busy loop on every core. */
export const CONTENTION_CONDITIONS = ['quiet', 'busy'] as const
export type ContentionCondition = (typeof CONTENTION_CONDITIONS)[number]

/** How long a REST window warms up and is measured, over how many connections; then requests one at a time. */
export interface RestWindowLoad {
  warmupSeconds: number
  seconds: number
  connections: number
  /** 0: none */
  serialRequests: number
}

export interface ProxiedContentionOptions extends RestWindowLoad {
  rounds: number
}

export interface ProxiedWindow {
  round: number
  condition: ContentionCondition
  target: string
  requestsPerSecond: number
  non2xx: number
  errors: number
  latencyMs: { p50: number; p99: number }
  /** the target's CPU over the measured run, per request */
  cpuMicrosPerRequest?: number
  /** the sandbox's CPU over the same run, per request: what the target costs its upstream */
  upstreamCpuMicrosPerRequest?: number
  /** the target's share of one core over the run */
  targetCpuPercent?: number
  /** one request at a time over one keep-alive connection, after the run */
  serialP50Ms?: number
  /** the sandbox called directly, one request between each two of the target's (serial-latency.ts) */
  directSerialP50Ms?: number
  /** the median of each of the target's requests less its paired direct request */
  serialOverheadMs?: number
  /** 1-minute load average when the window ended */
  loadAverage: number
}

export interface ProxiedContentionReport {
  ok: boolean
  error?: string
  options: ProxiedContentionOptions
  /** busy loops while a window is 'busy': one pinned to each core */
  busyLoops: number
  windows: ProxiedWindow[]
}
