/**
 * The socket systems under test. Adding one is one entry in `socketSystems`: start the server
 * (pinned to `ctx.serverCpus`) fed by `startFeed(ctx)`, and return the pid that does the fan-out.
 *
 * Every system gets its ticks from the same external feed process (`baselines/tick-feed.ts`), on
 * the load generator's core, like a remote exchange; no system makes its own ticks.
 */
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import type { ClientProtocol } from './native-client'
import type { Scenario, StreamRate } from './scenario'
import { startRedisChild, startRedisCluster } from '../../gateway/test/support/redis-server'
import { freePort } from '../../scripts/free-port.mjs'
import { inspectorFlag, liveHeapReadings } from '../../gateway/test/support/live-heap'
import { loadtestsDir, pinnedUnder, spawnTsServer, type ChildServer } from './child-process'
import { ensureGatewayBundle, startGatewayProcess } from './gateway-processes'

export interface SocketSystemContext {
  /** The scenario this system runs (a variant's own, where it has one). */
  scenario: Scenario
  /** Unique per harness run; use it in Redis key and channel prefixes. */
  runId: string
  /** Cores for the server (taskset -c); undefined when pinning is unavailable. */
  serverCpus: string | undefined
  redisUrl: string
  /** A Redis cluster for the sharded bus (redis-cluster://…), started on first use. */
  redisClusterUrl(): Promise<string>
}

/**
 * The Redis systems' brokers while `work` runs: the one `redisUrl` names, or the bench's own
 * redis-server on the generator's core (and a cluster, started on first use), stopped after.
 */
export async function withRedis<T>(
  redisUrl: string | undefined,
  generatorCpus: string | undefined,
  work: (brokers: Pick<SocketSystemContext, 'redisUrl' | 'redisClusterUrl'>) => Promise<T>,
): Promise<{ result: T; redis: { url: string; own: boolean; pinned: boolean } }> {
  const runUnder = pinnedUnder(generatorCpus)
  const own = redisUrl ? undefined : await startRedisChild({ runUnder })
  const url = redisUrl ?? own!.url
  let cluster: ReturnType<typeof startRedisCluster> | undefined
  try {
    const result = await work({
      redisUrl: url,
      redisClusterUrl: async () => (await (cluster ??= startRedisCluster({ runUnder }))).url,
    })
    return { result, redis: { url, own: Boolean(own), pinned: own?.pinned ?? false } }
  } finally {
    await (await cluster?.catch(() => undefined))?.stop()
    await own?.kill()
  }
}

export interface RunningSocketSystem {
  /** The process charged with CPU and RSS: the one writing frames to the client sockets. */
  pid: number
  /** ws: base URL, clients open `${url}/<uuid>`; socket.io: the http URL. */
  url: string
  pinned: boolean
  /** Starts the feed's ticks (once); the harness starts them at a low rate before clients connect. */
  startTicks(): Promise<void>
  /** Multiplies every tick rate of the scenario from now on (the capacity ramp). */
  setRateScale(scale: number): Promise<void>
  /** Frames the feed published per topic with a publish time in [from, to] (epoch ms). */
  countPublished(from: number, to: number): Promise<Record<string, number>>
  /** The server's V8 heap in use (bytes), where it reports it: heap per socket beside RSS per socket. */
  heapUsedBytes?(): Promise<number | undefined>
  /**
   * The heap the server keeps alive, MiB: the least of `count` readings after full collections. It opens
   * the server's inspector, which stays open, so it is the last thing read of a server.
   */
  liveHeapMb(count: number): Promise<number>
  /** Redis pub/sub work of the system, for showing that a storm's SUBSCRIBEs scale with topics. */
  busProbe?(): Promise<BusProbe>
  /** What the system says about itself (readiness, feed, counters, recent output) when a window comes back empty. */
  diagnose?(): Promise<string>
  stop(): Promise<void>
}

export interface BusProbe {
  /** SUBSCRIBE and SSUBSCRIBE calls the Redis server has counted (all its clients). */
  subscribeCommands: number
  /** Channels under the system's own prefix with at least one subscriber. */
  channels: number
}

/** A scenario variant: the same system driven with another subscription mix, at the largest client count only. */
export interface ScenarioVariant {
  /** The market list's update rate. */
  listRate?: StreamRate
  /** No DEPTH stream at all: the scenario as it was before the book, for the before/after of DEPTH. */
  withoutDepth?: true
  /** Socket.IO with every emit reliable instead of volatile latest values (same scenario). */
  reliableEmits?: true
}

export interface SocketSystem {
  name: string
  protocol: ClientProtocol
  variant?: ScenarioVariant
  /** Measured only in the interleaved rounds, beside the gateway: no ramp, no full-rate rows. */
  roundsOnly?: true
  /** Starts the system and its feed, ticks off; resolves when clients can connect. */
  start(ctx: SocketSystemContext): Promise<RunningSocketSystem>
}

export function variantScenario(base: Scenario, variant: ScenarioVariant | undefined): Scenario {
  if (!variant) return base
  return {
    ...base,
    ...(variant.listRate !== undefined ? { listRate: variant.listRate } : {}),
    ...(variant.withoutDepth ? { rates: { ...base.rates, DEPTH: 0 } } : {}),
  }
}

const baseline = (file: string): string => path.join(loadtestsDir, 'baselines', file)

async function probeRedis(redisUrl: string, prefix: string): Promise<BusProbe> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    const stats = await redis.info('commandstats')
    const calls = (command: string): number =>
      Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0)
    const channels = await redis.pubsub('CHANNELS', `${prefix}*`)
    return { subscribeCommands: calls('subscribe') + calls('ssubscribe'), channels: channels.length }
  } finally {
    redis.disconnect()
  }
}

export const FEED_TOKEN = `bench-feed-${randomBytes(6).toString('hex')}`

/** The tick feed, on the load generator's core (it inherits the harness's pinning), ticks off. */
function startFeed(ctx: SocketSystemContext): Promise<ChildServer> {
  return spawnTsServer(baseline('tick-feed.ts'), [
    '--scenario',
    JSON.stringify(ctx.scenario),
    '--feed-token',
    FEED_TOKEN,
  ])
}

type ServerPart = Pick<
  RunningSocketSystem,
  'pid' | 'url' | 'pinned' | 'busProbe' | 'diagnose' | 'heapUsedBytes' | 'liveHeapMb' | 'stop'
>

async function leastLiveHeap(pid: number, inspectPort: number, count: number): Promise<number> {
  return Math.min(...(await liveHeapReadings(pid, inspectPort, count)))
}

/** Starts the feed, then the server fed by it; stops the feed if the server does not start. */
export async function withFeed(
  ctx: SocketSystemContext,
  startServer: (feedUrl: string) => Promise<ServerPart>,
): Promise<RunningSocketSystem> {
  const feed = await startFeed(ctx)
  const feedUrl = `http://127.0.0.1:${feed.port}`
  try {
    const server = await startServer(feedUrl)
    return {
      ...server,
      startTicks: async () => {
        await feed.command({ cmd: 'start-ticks' })
      },
      setRateScale: async (scale) => {
        await feed.command({ cmd: 'set-rate', scale })
      },
      countPublished: async (from, to) =>
        (await feed.command({ cmd: 'count', from, to })) as Record<string, number>,
      async stop() {
        await server.stop()
        await feed.stop()
      },
    }
  } catch (error) {
    await feed.stop()
    throw error
  }
}

/** The gateway from its bundle on the server core, its upstream feed the tick feed. */
async function startGatewaySystem(
  ctx: SocketSystemContext,
  bus: 'memory' | 'redis' | 'cluster',
): Promise<RunningSocketSystem> {
  ensureGatewayBundle()
  const redisPrefix = `loadtests:${ctx.runId}:${bus}:${randomBytes(3).toString('hex')}:`
  const redisUrl = bus === 'redis' ? ctx.redisUrl : bus === 'cluster' ? await ctx.redisClusterUrl() : ''
  return withFeed(ctx, async (feedUrl) => {
    const inspectPort = await freePort()
    const gateway = await startGatewayProcess({
      upstreamUrl: feedUrl,
      feedToken: FEED_TOKEN,
      redisUrl,
      redisPrefix,
      cpus: ctx.serverCpus,
      nodeFlags: [inspectorFlag(inspectPort)],
    })
    return {
      pid: gateway.process.pid,
      url: `${gateway.url.replace('http', 'ws')}/ws`,
      pinned: gateway.process.pinned,
      liveHeapMb: (count) => leastLiveHeap(gateway.process.pid, inspectPort, count),
      busProbe: bus === 'redis' ? () => probeRedis(ctx.redisUrl, redisPrefix) : undefined,
      async heapUsedBytes() {
        const metrics = await fetch(`${gateway.url}/metrics`).then(
          (r) => r.text(),
          () => '',
        )
        // default metrics carry default labels (instance=…)
        const match = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?)/m.exec(metrics)
        return match ? Number(match[1]) : undefined
      },
      async diagnose() {
        const ready = await fetch(`${gateway.url}/readyz`).then((r) => r.text(), String)
        const metrics = await fetch(`${gateway.url}/metrics`).then((r) => r.text(), String)
        const wanted =
          /^gateway_(ws_connections|ws_subscriptions|ws_messages_sent_total|ws_dropped_total|bus_messages_total|feed_connected|feed_leader|redis_up)\b.*$/gm
        return `readyz ${ready}; ${(metrics.match(wanted) ?? []).join('; ')}; output: ${gateway.process.output().slice(-1500)}`
      },
      stop: () => gateway.stop(),
    }
  })
}

/** One of baselines/ on the server core, fed by the tick feed; `url` is where clients reach it. */
function startBaseline(
  ctx: SocketSystemContext,
  script: string,
  args: string[],
  url: (port: number) => string,
): Promise<RunningSocketSystem> {
  return withFeed(ctx, async (feedUrl) => {
    const feedArgs = ['--feed', feedUrl, '--feed-token', FEED_TOKEN]
    const inspectPort = await freePort()
    const child = await spawnTsServer(baseline(script), [...feedArgs, ...args], {
      cpus: ctx.serverCpus,
      nodeFlags: [inspectorFlag(inspectPort)],
    })
    return {
      pid: child.pid,
      url: url(child.port),
      pinned: child.pinned,
      liveHeapMb: (count) => leastLiveHeap(child.pid, inspectPort, count),
      stop: child.stop,
    }
  })
}

const startBareWs = (ctx: SocketSystemContext, write: 'plain' | 'cork' | 'preframed') =>
  startBaseline(
    ctx,
    'bare-ws-server.ts',
    write === 'plain' ? [] : [`--${write}`],
    (port) => `ws://127.0.0.1:${port}/ws`,
  )

function startSocketIo(ctx: SocketSystemContext, adapter: 'memory' | 'redis', reliable = false) {
  const args = [
    '--adapter',
    adapter,
    '--redis-url',
    ctx.redisUrl,
    '--key-prefix',
    `loadtests:${ctx.runId}:socket.io`,
  ]
  return startBaseline(
    ctx,
    'socketio-server.ts',
    [...args, ...(reliable ? ['--reliable'] : [])],
    (port) => `http://127.0.0.1:${port}`,
  )
}

export const GATEWAY = 'gateway (memory bus)'
export const GATEWAY_LISTS = 'gateway (memory bus), lists at 1000 ms'
export const GATEWAY_LISTS_100 = 'gateway (memory bus), lists at 100 ms'
export const GATEWAY_CLUSTER = 'gateway (cluster bus)'
export const BARE_WS_PREFRAMED = 'bare ws pre-framed'
export const GATEWAY_NO_DEPTH = 'gateway (memory bus), no DEPTH'
export const GATEWAY_REDIS = 'gateway (redis bus)'
export const BARE_WS_CORKED = 'bare ws corked'
export const BARE_WS = 'bare ws'
export const SOCKET_IO_MEMORY = 'socket.io (in-memory adapter)'
export const SOCKET_IO_REDIS = 'socket.io (redis adapter)'
export const SOCKET_IO_MEMORY_RELIABLE = 'socket.io (in-memory adapter), reliable emits'
export const SOCKET_IO_REDIS_RELIABLE = 'socket.io (redis adapter), reliable emits'

/** In run order: the first is the reference whose half capacity every later system is also measured at. */
export const socketSystems: SocketSystem[] = [
  { name: GATEWAY, protocol: 'ws', start: (ctx) => startGatewaySystem(ctx, 'memory') },
  {
    name: GATEWAY_LISTS,
    protocol: 'ws',
    variant: { listRate: 1000 },
    start: (ctx) => startGatewaySystem(ctx, 'memory'),
  },
  {
    name: GATEWAY_LISTS_100,
    protocol: 'ws',
    variant: { listRate: 100 },
    roundsOnly: true,
    start: (ctx) => startGatewaySystem(ctx, 'memory'),
  },
  {
    name: GATEWAY_NO_DEPTH,
    protocol: 'ws',
    variant: { withoutDepth: true },
    start: (ctx) => startGatewaySystem(ctx, 'memory'),
  },
  { name: GATEWAY_REDIS, protocol: 'ws', start: (ctx) => startGatewaySystem(ctx, 'redis') },
  {
    name: GATEWAY_CLUSTER,
    protocol: 'ws',
    roundsOnly: true,
    start: (ctx) => startGatewaySystem(ctx, 'cluster'),
  },
  { name: BARE_WS_PREFRAMED, protocol: 'ws', start: (ctx) => startBareWs(ctx, 'preframed') },
  { name: BARE_WS_CORKED, protocol: 'ws', start: (ctx) => startBareWs(ctx, 'cork') },
  { name: BARE_WS, protocol: 'ws', start: (ctx) => startBareWs(ctx, 'plain') },
  { name: SOCKET_IO_MEMORY, protocol: 'socket.io', start: (ctx) => startSocketIo(ctx, 'memory') },
  { name: SOCKET_IO_REDIS, protocol: 'socket.io', start: (ctx) => startSocketIo(ctx, 'redis') },
  {
    name: SOCKET_IO_MEMORY_RELIABLE,
    protocol: 'socket.io',
    variant: { reliableEmits: true },
    start: (ctx) => startSocketIo(ctx, 'memory', true),
  },
  {
    name: SOCKET_IO_REDIS_RELIABLE,
    protocol: 'socket.io',
    variant: { reliableEmits: true },
    start: (ctx) => startSocketIo(ctx, 'redis', true),
  },
]
