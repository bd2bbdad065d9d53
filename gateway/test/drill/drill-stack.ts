import { WebSocket } from 'ws'
import { CALLS } from '@tradegate/shared'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from '../live/sandbox-upstream'
import { freePort } from '../../../scripts/free-port.mjs'
import {
  startRedisChild,
  startRedisCluster,
  type RedisChild,
  type RedisClusterChild,
  type RedisClusterOptions,
} from '../support/redis-server'
import {
  startGatewayProcess,
  startNginx,
  startNginxLogMetrics,
  type ChildHandle,
  type LogMetricsHandle,
  type NginxHandle,
} from '../live/processes'
import { uniquePrefix } from '../live/helpers'
import { startFaultProxy, type FaultProxy } from '../live/tcp-fault-proxy'
import { startPrometheus, type RunningPrometheus } from './prometheus'

// The fault drill's deployment, all real processes: Redis (one, or a cluster), the sandbox behind a TCP fault proxy (so
// the upstream can freeze), three gateways with their metrics ports, docker/nginx.conf in front with
// mtail on its access log, Prometheus with the shipped rules; and the clients whose experience the
// drill reports: sockets through nginx counting ticks, REST (GET and POST) through nginx counting
// failures, and among them the 5xx nginx made itself.

const TICK_MS = 100
/** A round of the REST load every this long, answered or not (open loop) */
const REST_ROUND_MS = 250

export interface GatewayNode {
  id: string
  env: Record<string, string>
  process: ChildHandle
  metricsPort: number
}

export interface DrillStack {
  /** the single Redis, or null on a cluster stack */
  redis: RedisChild | null
  /** the Redis Cluster, or null on a single-Redis stack */
  cluster: RedisClusterChild | null
  /** the gateways' REDIS_PREFIX, to find the node that holds a key or channel */
  prefix: string
  upstream: SandboxUpstream
  /** between the gateways and the sandbox, REST and feed alike */
  upstreamProxy: FaultProxy
  nginxLog: LogMetricsHandle
  gateways: GatewayNode[]
  nginx: NginxHandle
  prometheus: RunningPrometheus
  clients: Clients
  /** starts a gateway again with its own settings and port numbers */
  restart(node: GatewayNode): Promise<void>
  close(): Promise<void>
}

/** What clients saw: ticks per socket (duplicates, gaps), resync frames, failed REST calls. */
export class Clients {
  readonly ticks: number[][] = []
  duplicates = 0
  resyncs = 0
  reconnects = 0
  restOk = 0
  restFailed = 0
  /** failed calls by method, path and status */
  readonly restFailedByCall = new Map<string, number>()
  /** 5xx that nginx made itself: no gateway's x-request-id on them */
  lbErrors = 0
  private stopped = false
  private restTimer: NodeJS.Timeout | undefined
  private readonly sockets: WebSocket[] = []

  /** socket i watches symbols[i % symbols.length] */
  constructor(
    private readonly base: string,
    readonly symbols: string[] = ['btcusdt'],
  ) {}

  async open(count: number): Promise<void> {
    for (let i = 0; i < count; i++) this.openSocket(i)
    await Promise.all(this.sockets.map((ws) => new Promise((resolve) => ws.once('open', resolve))))
  }

  /**
   * Steady REST load through nginx, open loop: a round of four calls (two cached GETs, one GET the
   * upstream answers, and a POST nginx never retries once a gateway has it) every REST_ROUND_MS, sent
   * on the clock whether or not the earlier ones were answered, as users keep clicking while calls
   * hang. 16 requests a second, under the edge's 20 a second per address.
   */
  startRest(): void {
    const calls: Array<{ method: string; path: string }> = [
      { method: 'GET', path: CALLS.getCoinList.path },
      { method: 'GET', path: CALLS.getAllSetting.path },
      // never cached: every one reaches the upstream
      { method: 'GET', path: CALLS.assetBalance.path },
      { method: 'POST', path: CALLS.getCountryCode.path },
    ]
    const send = (call: { method: string; path: string }): void => {
      const key = (status: number | string) => `${call.method} ${call.path} ${status}`
      const failed = (status: number | string, fromNginx: boolean): void => {
        this.restFailed++
        this.restFailedByCall.set(key(status), (this.restFailedByCall.get(key(status)) ?? 0) + 1)
        if (fromNginx) this.lbErrors++
      }
      fetch(`${this.base}${call.path}`, { method: call.method }).then(
        (answer) => {
          void answer.arrayBuffer().catch(() => {})
          if (answer.status < 500) this.restOk++
          else failed(answer.status, !answer.headers.has('x-request-id'))
        },
        () => failed('network error', false),
      )
    }
    this.restTimer = setInterval(() => {
      if (!this.stopped) for (const call of calls) send(call)
    }, REST_ROUND_MS)
  }

  /**
   * The longest time between two ticks on any socket from `since`, counting from the last tick before
   * it, and up to `until` for a socket still waiting for its next one; only on the sockets `counted`.
   */
  longestGapSince(since: number, until = Date.now(), counted = (_index: number) => true): number {
    let longest = 0
    for (const [index, list] of this.ticks.entries()) {
      if (!counted(index)) continue
      const first = list.findIndex((ts) => ts >= since)
      for (let i = Math.max(1, first < 0 ? list.length : first); i < list.length; i++)
        longest = Math.max(longest, list[i]! - list[i - 1]!)
      const last = list.at(-1)
      if (last !== undefined) longest = Math.max(longest, until - Math.max(last, since))
    }
    return longest
  }

  ticksSince(since: number): number {
    return Math.min(...this.ticks.map((list) => list.filter((ts) => ts >= since).length))
  }

  close(): void {
    this.stopped = true
    clearInterval(this.restTimer)
    for (const ws of this.sockets) ws.terminate()
  }

  private openSocket(index: number): void {
    const ws = new WebSocket(`${this.base.replace('http', 'ws')}/ws/drill-${index}`, {
      perMessageDeflate: false,
    })
    this.sockets[index] = ws
    this.ticks[index] ??= []
    const seen = new Set<number>()
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          operation: 'subscribe',
          type: 'DETAIL',
          symbol: this.symbols[index % this.symbols.length],
        }),
      ),
    )
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; ts: number }
      if (frame.type === 'resync') this.resyncs++
      if (frame.type !== 'DETAIL') return
      // the snapshot on (re)subscribe repeats the last tick by design; count repeats beyond it
      if (seen.has(frame.ts) && this.ticks[index]!.at(-1) !== frame.ts) this.duplicates++
      if (!seen.has(frame.ts)) this.ticks[index]!.push(frame.ts)
      seen.add(frame.ts)
    })
    ws.on('error', () => {})
    ws.on('close', () => {
      if (this.stopped) return
      this.reconnects++
      setTimeout(() => this.openSocket(index), 500)
    })
  }
}

export interface DrillStackOptions {
  /** a Redis Cluster instead of one Redis */
  cluster?: RedisClusterOptions
  /** the symbols the sockets watch, spread over them in turn (btcusdt alone by default) */
  symbols?: string[]
}

export async function startDrillStack(options: DrillStackOptions = {}): Promise<DrillStack> {
  const redis = options.cluster ? null : await startRedisChild()
  const cluster = options.cluster ? await startRedisCluster(options.cluster) : null
  const redisUrl = cluster?.url ?? redis?.url ?? ''
  const upstream = await startSandboxUpstream(TICK_MS)
  const sandboxPort = Number(new URL(upstream.url).port)
  const upstreamProxy = await startFaultProxy({ targetHost: '127.0.0.1', targetPort: sandboxPort })
  const prefix = uniquePrefix('drill')
  const gateways: GatewayNode[] = []
  for (const id of ['gateway-a', 'gateway-b', 'gateway-c']) {
    const metricsPort = await freePort()
    const env = {
      INSTANCE_ID: id,
      UPSTREAM_URL: `http://127.0.0.1:${upstreamProxy.port}`,
      FEED_TOKEN,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      METRICS_PORT: String(metricsPort),
      TRUST_PROXY: 'loopback',
      // Every setting at its default but two. A reader that stopped reading is cut within 5-10 s (two
      // pings) instead of 25-50 s, so the slow-consumer alert fires within the drill's 2-minute bound
      WS_PING_INTERVAL_MS: '5000',
      // no load shedding, as in every test gateway: on this shared machine other work alone starves
      // an event loop past the default 1 s, and the 503s it sheds would be counted against the
      // fault under test (no fault here stalls a loop that long)
      MAX_EVENT_LOOP_DELAY_MS: '0',
    }
    gateways.push({ id, env, metricsPort, process: await startGatewayProcess(env) })
  }
  const nginx = await startNginx(gateways.map((node) => node.process.port))
  const nginxLog = await startNginxLogMetrics(nginx.accessLogFile)
  const prometheus = await startPrometheus({
    gateway: gateways.map((node) => `127.0.0.1:${node.metricsPort}`),
    nginx: [nginxLog.target],
  })
  const clients = new Clients(`http://127.0.0.1:${nginx.port}`, options.symbols)
  return {
    redis,
    cluster,
    prefix,
    upstream,
    upstreamProxy,
    nginxLog,
    gateways,
    nginx,
    prometheus,
    clients,
    async restart(node) {
      node.process = await startGatewayProcess({ ...node.env, PORT: String(node.process.port) })
    },
    async close() {
      clients.close()
      await prometheus.close()
      await nginxLog.kill('SIGTERM')
      await nginx.close()
      await Promise.all(gateways.map((node) => node.process.kill('SIGTERM')))
      await upstreamProxy.close()
      await upstream.close()
      await redis?.kill()
      await cluster?.stop()
    },
  }
}
