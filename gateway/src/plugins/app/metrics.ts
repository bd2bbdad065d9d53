import fp from 'fastify-plugin'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { serveMetrics, type MetricsEndpointOptions } from './metrics-endpoint'
import { RouteHistogram } from './route-histogram'

// Every metric the gateway exports, in one place; labels never carry a user or a token.

/** Values read at scrape time from parts registered after the metrics. */
export interface ScrapeProbes {
  ready(): boolean
}

// a bucket at every threshold the alerting rules use (2 s: GatewayUpstreamSlow), so an alert never
// fires on a value between two buckets that is below its threshold
const SECONDS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 5, 10, 15, 30, 60,
]

/** Event-loop delay buckets: 200 ms is GatewayEventLoopDelay's threshold; a sample is at least LOOP_SAMPLE_MS. */
const LOOP_DELAY_SECONDS = [0.011, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5]
const LOOP_SAMPLE_MS = 10

export function createMetrics(instance: string, probes?: ScrapeProbes) {
  const registry = new Registry()
  // not `instance`: that label is the scrape target's, which Prometheus sets on every series it scrapes
  // (and `up`, which no gateway writes, has only that one), so alerts name every gateway the same way
  registry.setDefaultLabels({ gateway_instance: instance })
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  const metrics = {
    registry,
    eventLoopDelay: eventLoopDelayHistogram(registers),
    ...restMetrics(registers, SECONDS),
    ...socketMetrics(registers),
    ...feedMetrics(registers),
    ...storeMetrics(registers, probes),
  }
  startAtZero(metrics)
  return metrics
}

/**
 * The event-loop delay as a cumulative histogram, `gateway_event_loop_delay_seconds`. prom-client's
 * `nodejs_eventloop_lag_p99_seconds` is the p99 since the previous scrape (it resets its sampler on
 * each), so two Prometheus servers each see a part of the delays, and a stall between two scrapes of
 * one server may be reported only to the other. Here a 10 ms timer records how late it ran into a
 * prom-client histogram, whose counts only grow: every scraper reads the same totals, and `rate()`
 * over them is the delay of its window. At 100 samples a second prom-client's own cost is nothing.
 */
function eventLoopDelayHistogram(registers: Registry[]): { stop(): void } {
  const histogram = new Histogram({
    name: 'gateway_event_loop_delay_seconds',
    help: 'Time between two runs of a 10 ms timer (10 ms on an idle loop), a sample every run',
    buckets: LOOP_DELAY_SECONDS,
    registers,
  })
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    histogram.observe((now - last) / 1000)
    last = now
  }, LOOP_SAMPLE_MS).unref()
  return { stop: () => clearInterval(timer) }
}

/** The REST path: answers, their time, the upstream behind them, the cache, refusals. */
function restMetrics(registers: Registry[], seconds: number[]) {
  return {
    httpRequests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    httpErrors: new Counter({
      name: 'gateway_http_errors_total',
      help: '5xx answers by source: upstream (its own answer, passed through) or gateway (made here)',
      labelNames: ['source', 'status'] as const,
      registers,
    }),
    // observed on every request: route-histogram.ts says why not prom-client's Histogram
    httpDuration: new RouteHistogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      buckets: seconds,
      registers,
    }),
    upstreamDuration: new RouteHistogram({
      name: 'gateway_upstream_request_duration_seconds',
      help: 'Time the upstream took to answer',
      buckets: seconds,
      registers,
    }),
    upstreamUp: new Gauge({
      name: 'gateway_upstream_up',
      help: '1 while the upstream answers (its probe and its calls); 0 while unreachable or frozen',
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Upstream calls that failed, by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    cacheRequests: new Counter({
      name: 'gateway_cache_requests_total',
      help: 'Cacheable requests by result',
      labelNames: ['route', 'result'] as const,
      registers,
    }),
    rejectedRequests: new Counter({
      name: 'gateway_rejected_requests_total',
      help: 'Requests (and socket subscriptions) refused before reaching upstream, by reason',
      labelNames: ['reason'] as const,
      registers,
    }),
  }
}

/** Client sockets: how many, what they watch, what they were sent, skipped, closed and refused. */
function socketMetrics(registers: Registry[]) {
  return {
    wsConnections: new Gauge({ name: 'gateway_ws_connections', help: 'Open client sockets', registers }),
    wsSubscriptions: new Gauge({
      name: 'gateway_ws_subscriptions',
      help: 'Topic subscriptions across open sockets',
      registers,
    }),
    wsTopics: new Gauge({
      name: 'gateway_ws_topics',
      help: 'Topics the sockets of this instance watch, each one bus subscription',
      registers,
    }),
    wsTopicsSilent: new Gauge({
      name: 'gateway_ws_topics_silent',
      help: 'Market topics watched here that got no frame for 30 s (user topics left out)',
      registers,
    }),
    wsMessagesSent: new Counter({
      name: 'gateway_ws_messages_sent_total',
      help: 'Frames written to client sockets',
      registers,
    }),
    wsDropped: new Counter({
      name: 'gateway_ws_dropped_total',
      help: 'Frames skipped for slow sockets (conflated) and sockets closed for lagging (slow_close)',
      labelNames: ['reason'] as const,
      registers,
    }),
    wsClosed: new Counter({
      name: 'gateway_ws_closed_total',
      help: 'Client sockets closed, by reason: client, ping_timeout, limit, shutdown, server (slow closes: gateway_ws_dropped_total)',
      labelNames: ['reason'] as const,
      registers,
    }),
    wsRefused: new Counter({
      name: 'gateway_ws_refused_total',
      help: 'Socket upgrades answered with an HTTP error, by reason',
      labelNames: ['reason'] as const,
      registers,
    }),
    wsResyncs: new Counter({
      name: 'gateway_ws_resyncs_total',
      help: 'Resync frames sent to sockets after a gap in live data, by reason (feed, bus)',
      labelNames: ['reason'] as const,
      registers,
    }),
  }
}

/** The upstream feed and the bus that carries it between instances. */
function feedMetrics(registers: Registry[]) {
  // The feed writes these on every frame and the gauges read them only when scraped: a prom-client
  // gauge's `set` makes a labels object, a key list and an entry each time, 1.7 MiB of the 27.5 an idle
  // gateway allocated in 10 s (loadtests/LIFECYCLE.md, "What an idle gateway promotes").
  // Before the first frame, silence counts from the start.
  const feedReadings = { lastFrameAt: Date.now() / 1000, lagSeconds: 0 }
  return {
    feedReadings,
    busMessages: new Counter({
      name: 'gateway_bus_messages_total',
      help: 'Frames received from the bus, by source',
      labelNames: ['source'] as const,
      registers,
    }),
    feedConnected: new Gauge({
      name: 'gateway_feed_connected',
      help: '1 while the upstream feed is open',
      registers,
    }),
    feedFrames: new Counter({
      name: 'gateway_feed_frames_total',
      help: 'Data frames (not heartbeats) received from the upstream feed',
      registers,
    }),
    feedLeader: new Gauge({
      name: 'gateway_feed_leader',
      help: '1 while this instance holds the feed lease',
      registers,
    }),
    feedFallback: new Gauge({
      name: 'gateway_feed_fallback',
      help: '1 while this instance reads the upstream feed itself because its bus is down',
      registers,
    }),
    busUp: new Gauge({
      name: 'gateway_bus_up',
      help: '1 while the bus reaches the other instances (Redis pub/sub); absent without Redis',
      registers,
    }),
    feedLastFrame: new Gauge({
      name: 'gateway_feed_last_frame_timestamp_seconds',
      help: 'When this instance last received a data frame from the upstream feed (its start, before the first)',
      registers,
      collect() {
        this.set(feedReadings.lastFrameAt)
      },
    }),
    feedLag: new Gauge({
      name: 'gateway_feed_lag_seconds',
      help: 'Age of the newest upstream frame when it was published',
      registers,
      collect() {
        this.set(feedReadings.lagSeconds)
      },
    }),
  }
}

/** Redis and readiness. */
function storeMetrics(registers: Registry[], probes: ScrapeProbes | undefined) {
  return {
    redisMasters: new Gauge({
      name: 'gateway_redis_masters',
      help: 'Redis Cluster masters in the slot map this instance knows (absent without a cluster)',
      registers,
    }),
    redisMastersUp: new Gauge({
      name: 'gateway_redis_masters_up',
      help: 'Redis Cluster masters this instance reaches (absent without a cluster)',
      registers,
    }),
    redisUp: new Gauge({
      name: 'gateway_redis_up',
      help: '1 while Redis answers (absent without Redis)',
      registers,
    }),
    ready: new Gauge({
      name: 'gateway_ready',
      help: '1 while /readyz answers 200',
      registers,
      collect() {
        if (probes) this.set(probes.ready() ? 1 : 0)
      },
    }),
  }
}

export type Metrics = ReturnType<typeof createMetrics>

/**
 * A metric's labelled child for each distinct set of label values, looked up once: prom-client otherwise
 * sorts and hashes the labels again on every request. Looked up value by value, so a lookup builds no key.
 */
export function labelledChildren<Child>(metric: {
  labels(...values: string[]): Child
}): (...values: Array<string | number>) => Child {
  const root = new Map<string | number, unknown>()
  return (...values) => {
    let level = root
    const last = values.length - 1
    for (let index = 0; index < last; index++) {
      let next = level.get(values[index]!) as Map<string | number, unknown> | undefined
      if (!next) level.set(values[index]!, (next = new Map()))
      level = next
    }
    let child = level.get(values[last]!) as Child | undefined
    if (!child) level.set(values[last]!, (child = metric.labels(...values.map(String))))
    return child
  }
}

/**
 * Like `labelledChildren` for a counter, each series counted in a plain number and added to the counter
 * when it is read (a scrape): a prom-client child hashes its labels again on every `inc`. Measured with
 * RouteHistogram's script: 40–250 ns an increment against 0.7–2.5 µs for the prom-client child.
 */
export function batchedCounter(counter: Counter<string>): (...values: Array<string | number>) => {
  inc(): void
} {
  const slots: Array<{ values: string[]; pending: number; inc(): void }> = []
  const slotOf = labelledChildren({
    labels(...values: string[]) {
      const slot = {
        values,
        pending: 0,
        inc() {
          slot.pending++
        },
      }
      slots.push(slot)
      return slot
    },
  })
  const collect = (counter as { collect?: () => unknown }).collect
  ;(counter as { collect?: () => unknown }).collect = function (this: Counter<string>) {
    for (const slot of slots) {
      if (slot.pending === 0) continue
      counter.labels(...slot.values).inc(slot.pending)
      slot.pending = 0
    }
    return collect?.call(this)
  }
  return slotOf
}

/** Label values each counter is known to take, so every series exists from the start at 0. */
export const KNOWN_LABELS = {
  upstreamErrors: { kind: ['connect', 'timeout', 'reset', 'too_large', 'server_error'] },
  rejectedRequests: {
    reason: [
      'chinese',
      'too_large',
      'rate_limited',
      'pressure',
      'unknown_route',
      'unknown_symbol',
      'too_many_topics',
    ],
  },
  wsDropped: { reason: ['conflated', 'slow_close'] },
  wsClosed: { reason: ['client', 'ping_timeout', 'limit', 'shutdown', 'server'] },
  wsRefused: { reason: ['path', 'draining', 'origin', 'too_many_sockets', 'handshake'] },
  wsResyncs: { reason: ['feed', 'bus'] },
  busMessages: { source: ['local', 'redis'] },
} as const

const HTTP_ERROR_STATUSES = [500, 502, 503, 504]

type StartingMetrics = Record<keyof typeof KNOWN_LABELS | 'httpErrors', Counter<string>> & {
  upstreamUp: Gauge
}

function startAtZero(metrics: StartingMetrics): void {
  for (const [name, labels] of Object.entries(KNOWN_LABELS) as Array<
    [keyof typeof KNOWN_LABELS, Record<string, readonly string[]>]
  >) {
    for (const [label, values] of Object.entries(labels))
      for (const value of values) metrics[name].inc({ [label]: value }, 0)
  }
  for (const source of ['upstream', 'gateway'])
    for (const status of HTTP_ERROR_STATUSES) metrics.httpErrors.inc({ source, status }, 0)
  metrics.upstreamUp.set(1)
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics
  }
}

export interface MetricsOptions extends MetricsEndpointOptions {
  instance: string
  /** false leaves gateway_redis_up out, so that a gateway without Redis never reads as Redis down */
  redis?: boolean
  /** false leaves the Redis Cluster master gauges out */
  redisCluster?: boolean
}

export const metricsPlugin = fp<MetricsOptions>(
  async (app, { instance, redis = true, redisCluster = false, ...endpoint }) => {
    const metrics = createMetrics(instance, {
      ready: () => app.hasDecorator('readiness') && app.readiness.reasons().length === 0,
    })
    if (!redis) {
      metrics.registry.removeSingleMetric('gateway_redis_up')
      metrics.registry.removeSingleMetric('gateway_bus_up')
    }
    // only a Redis Cluster has masters to count
    if (!redisCluster) {
      metrics.registry.removeSingleMetric('gateway_redis_masters')
      metrics.registry.removeSingleMetric('gateway_redis_masters_up')
    }
    app.decorate('metrics', metrics)
    app.addHook('onClose', async () => metrics.eventLoopDelay.stop())
    serveMetrics(app, metrics.registry, endpoint)
  },
  { name: 'metrics' },
)
