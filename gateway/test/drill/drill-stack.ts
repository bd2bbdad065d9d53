import { WebSocket } from 'ws'
import { CALLS } from '@tradegate/shared'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from '../live/sandbox-upstream'
import { freePort } from '../support/free-port'
import { startRedisChild, type RedisChild } from '../support/redis-server'
import { startGatewayProcess, startNginx, type ChildHandle, type NginxHandle } from '../live/processes'
import { uniquePrefix } from '../live/helpers'
import { startPrometheus, type RunningPrometheus } from './prometheus'

// The fault drill's deployment, all real processes: Redis, the sandbox, three gateways with their
// metrics ports, docker/nginx.conf in front, Prometheus with the shipped rules; and the clients whose
// experience the drill reports: sockets through nginx counting ticks, REST through nginx counting
// failures.

export const LEASE_MS = 1500
const TICK_MS = 100

export interface GatewayNode {
  id: string
  env: Record<string, string>
  process: ChildHandle
  metricsPort: number
}

export interface DrillStack {
  redis: RedisChild
  upstream: SandboxUpstream
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
  private stopped = false
  private readonly sockets: WebSocket[] = []

  constructor(private readonly base: string) {}

  async open(count: number): Promise<void> {
    for (let i = 0; i < count; i++) this.openSocket(i)
    await Promise.all(this.sockets.map((ws) => new Promise((resolve) => ws.once('open', resolve))))
  }

  /** Steady REST load through nginx: two cached calls and one the upstream answers each round. */
  startRest(): void {
    const round = async (): Promise<void> => {
      while (!this.stopped) {
        const calls = [
          fetch(`${this.base}${CALLS.getCoinList.path}`),
          fetch(`${this.base}${CALLS.getAllSetting.path}`),
          // never cached: every one reaches the upstream
          fetch(`${this.base}${CALLS.assetBalance.path}`),
        ]
        for (const answer of await Promise.allSettled(calls)) {
          if (answer.status === 'fulfilled' && answer.value.status < 500) this.restOk++
          else this.restFailed++
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    void round()
  }

  /** the longest time between two ticks on any socket from `since`, counting from the last tick before it */
  longestGapSince(since: number): number {
    let longest = 0
    for (const list of this.ticks) {
      const first = list.findIndex((ts) => ts >= since)
      if (first < 0) continue
      for (let i = Math.max(1, first); i < list.length; i++)
        longest = Math.max(longest, list[i]! - list[i - 1]!)
    }
    return longest
  }

  ticksSince(since: number): number {
    return Math.min(...this.ticks.map((list) => list.filter((ts) => ts >= since).length))
  }

  close(): void {
    this.stopped = true
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
      ws.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })),
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

export async function startDrillStack(): Promise<DrillStack> {
  const redis = await startRedisChild()
  const upstream = await startSandboxUpstream(TICK_MS)
  const prefix = uniquePrefix('drill')
  const gateways: GatewayNode[] = []
  for (const id of ['gateway-a', 'gateway-b', 'gateway-c']) {
    const metricsPort = await freePort()
    const env = {
      INSTANCE_ID: id,
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      REDIS_URL: redis.url,
      REDIS_PREFIX: prefix,
      FEED_LEASE_MS: String(LEASE_MS),
      METRICS_PORT: String(metricsPort),
      TRUST_PROXY: 'loopback',
      WS_MAX_SOCKETS_PER_IP: '1000',
      RATE_LIMIT_PER_MINUTE: '100000',
    }
    gateways.push({ id, env, metricsPort, process: await startGatewayProcess(env) })
  }
  const nginx = await startNginx(gateways.map((node) => node.process.port))
  const prometheus = await startPrometheus(gateways.map((node) => `127.0.0.1:${node.metricsPort}`))
  const clients = new Clients(`http://127.0.0.1:${nginx.port}`)
  return {
    redis,
    upstream,
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
      await nginx.close()
      await Promise.all(gateways.map((node) => node.process.kill('SIGTERM')))
      await upstream.close()
      await redis.kill()
    },
  }
}
