/**
 * The socket systems under test. Adding one is one entry in `socketSystems`: start it (pinned to
 * `ctx.serverCpus`), publish `ctx.scenario`'s ticks from `startTicks()`, and return the pid that does
 * the fan-out.
 */
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import type { ClientProtocol } from './lean-client'
import type { Scenario } from './scenario'
import { loadtestsDir, spawnTsServer, type ChildServer } from './child-process'
import { ensureGatewayBundle, startGatewayProcess } from './gateway-processes'

export interface SocketSystemContext {
  scenario: Scenario
  /** Unique per harness run; use it in Redis key and channel prefixes. */
  runId: string
  /** Cores for the server (taskset -c); undefined when pinning is unavailable. */
  serverCpus: string | undefined
  redisUrl: string
}

export interface RunningSocketSystem {
  /** The process charged with CPU and RSS: the one writing frames to the client sockets. */
  pid: number
  /** ws: base URL, clients open `${url}/<uuid>`; socket.io: the http URL. */
  url: string
  pinned: boolean
  /**
   * Starts publishing the scenario's ticks. The harness connects every client to an idle server
   * first, so the connect rate is not starved by a fan-out the server cannot keep up with.
   */
  startTicks(): Promise<void>
  /** Multiplies every tick rate of the scenario from now on (the saturation ramp). */
  setRateScale(scale: number): Promise<void>
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

export interface SocketSystem {
  name: string
  protocol: ClientProtocol
  /** Starts the system, idle until `startTicks`; resolves when clients can connect. */
  start(ctx: SocketSystemContext): Promise<RunningSocketSystem>
}

const baseline = (file: string): string => path.join(loadtestsDir, 'baselines', file)

function tickControls(child: ChildServer): Pick<RunningSocketSystem, 'startTicks' | 'setRateScale'> {
  return {
    startTicks: () => child.command({ cmd: 'start-ticks' }),
    setRateScale: (scale) => child.command({ cmd: 'set-rate', scale }),
  }
}

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

const FEED_TOKEN = `bench-feed-${randomBytes(6).toString('hex')}`

/**
 * The gateway from its bundle on the server core, fed by the bare ws server in upstream-feed mode
 * (on the load generator's core, like a remote exchange), which publishes the scenario's frames.
 */
async function startGatewaySystem(
  ctx: SocketSystemContext,
  bus: 'memory' | 'redis',
): Promise<RunningSocketSystem> {
  ensureGatewayBundle()
  const feed = await spawnTsServer(baseline('bare-ws-server.ts'), [
    '--scenario',
    JSON.stringify(ctx.scenario),
    '--ticks-on-command',
    '--feed-token',
    FEED_TOKEN,
  ])
  const redisPrefix = `loadtests:${ctx.runId}:${bus}:${randomBytes(3).toString('hex')}:`
  try {
    const gateway = await startGatewayProcess({
      upstreamUrl: `http://127.0.0.1:${feed.port}`,
      feedToken: FEED_TOKEN,
      redisUrl: bus === 'redis' ? ctx.redisUrl : '',
      redisPrefix,
      cpus: ctx.serverCpus,
    })
    return {
      pid: gateway.process.pid,
      url: `${gateway.url.replace('http', 'ws')}/ws`,
      pinned: gateway.process.pinned,
      ...tickControls(feed),
      busProbe: bus === 'redis' ? () => probeRedis(ctx.redisUrl, redisPrefix) : undefined,
      async diagnose() {
        const ready = await fetch(`${gateway.url}/readyz`).then((r) => r.text(), String)
        const metrics = await fetch(`${gateway.url}/metrics`).then((r) => r.text(), String)
        const wanted =
          /^gateway_(ws_connections|ws_subscriptions|ws_messages_sent_total|ws_dropped_total|bus_messages_total|feed_connected|feed_leader|redis_up)\b.*$/gm
        return `readyz ${ready}; ${(metrics.match(wanted) ?? []).join('; ')}; output: ${gateway.process.output().slice(-1500)}`
      },
      async stop() {
        await gateway.stop()
        await feed.stop()
      },
    }
  } catch (error) {
    await feed.stop()
    throw error
  }
}

export const socketSystems: SocketSystem[] = [
  { name: 'gateway (memory bus)', protocol: 'ws', start: (ctx) => startGatewaySystem(ctx, 'memory') },
  { name: 'gateway (redis bus)', protocol: 'ws', start: (ctx) => startGatewaySystem(ctx, 'redis') },
  {
    name: 'bare ws',
    protocol: 'ws',
    async start(ctx) {
      const child = await spawnTsServer(
        baseline('bare-ws-server.ts'),
        ['--scenario', JSON.stringify(ctx.scenario), '--ticks-on-command'],
        { cpus: ctx.serverCpus },
      )
      return {
        pid: child.pid,
        url: `ws://127.0.0.1:${child.port}/ws`,
        pinned: child.pinned,
        ...tickControls(child),
        stop: child.stop,
      }
    },
  },
  {
    name: 'socket.io + redis adapter',
    protocol: 'socket.io',
    async start(ctx) {
      const child = await spawnTsServer(
        baseline('socketio-server.ts'),
        [
          '--scenario',
          JSON.stringify(ctx.scenario),
          '--redis-url',
          ctx.redisUrl,
          '--key-prefix',
          `loadtests:${ctx.runId}:socket.io`,
          '--ticks-on-command',
        ],
        { cpus: ctx.serverCpus },
      )
      return {
        pid: child.pid,
        url: `http://127.0.0.1:${child.port}`,
        pinned: child.pinned,
        ...tickControls(child),
        stop: child.stop,
      }
    },
  },
]
