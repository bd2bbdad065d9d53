/**
 * Side-by-side socket fan-out figures for the gateway and the bare `ws` floor, using the load
 * harness's lean client and scenario (loadtests/bench), until the harness registers the gateway.
 *
 *   npx tsx gateway/test/live/bench/fanout-bench.ts [--clients 2000,10000] [--seconds 10] [--systems bare,memory,redis] [--rate-scale 0.1]
 *
 * This process (clients and the scenario's upstream feed) runs on core 0, each server on core 1.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { WebSocketServer, type WebSocket } from 'ws'
import { LeanClientFleet } from '../../../../loadtests/bench/lean-client'
import { defaultScenario, startTickGenerator, type ServerFrame } from '../../../../loadtests/bench/scenario'
import { socketSystems } from '../../../../loadtests/bench/socket-systems'
import { pinSelf, hasTaskset } from '../../../../loadtests/bench/child-process'
import { readCpuMicros, readRssBytes } from '../../../../loadtests/bench/proc-stats'
import { FEED_TOKEN_HEADER } from '@tradegate/shared'
import { freePort } from '../redis-server'
import { repoRoot } from '../processes'

const FEED_TOKEN = 'bench-feed-token'
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** The scenario's frames in the upstream feed's own shape, which the gateway normalises. */
function upstreamFrame(frame: ServerFrame): string {
  const d = frame.data
  if (frame.type === 'DETAIL') {
    const { open, close, high, low, vol, amount, rose } = d
    return JSON.stringify({
      type: 'DETAIL',
      symbol: frame.symbol,
      data: { open, close, high, low, vol, amount, change: rose },
      ts: frame.ts,
    })
  }
  if (frame.type === 'KLINE') {
    const { open, close, high, low, vol } = d
    const time = Number(d.id) * 1000
    return JSON.stringify({
      type: 'KLINE',
      symbol: frame.symbol,
      interval: frame.interval,
      data: { time, open, high, low, close, vol },
      ts: frame.ts,
    })
  }
  return JSON.stringify({
    type: 'TRADE',
    symbol: frame.symbol,
    data: { price: d.price, qty: d.amount, side: d.direction, time: d.time },
    ts: frame.ts,
  })
}

interface Running {
  pid: number
  url: string
  startTicks(): Promise<void>
  stop(): Promise<void>
}

async function startGatewaySystem(redisUrl: string | null): Promise<Running> {
  const feeds = new Set<WebSocket>()
  const http = createServer()
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false })
  http.on('upgrade', (request, socket, head) => {
    if (request.headers[FEED_TOKEN_HEADER] !== FEED_TOKEN) return socket.destroy()
    wss.handleUpgrade(request, socket, head, (ws) => {
      feeds.add(ws)
      ws.on('close', () => feeds.delete(ws))
    })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const upstreamPort = (http.address() as AddressInfo).port
  const port = await freePort()
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}`,
    FEED_TOKEN,
    REDIS_URL: redisUrl ?? '',
    REDIS_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
    LOG_LEVEL: 'warn',
    WS_MAX_SOCKETS_PER_IP: '1000000',
    RATE_LIMIT_PER_MINUTE: '1000000',
  }
  const args = ['--import', 'tsx', 'gateway/src/main.ts']
  const child = hasTaskset()
    ? spawn('taskset', ['-c', '1', process.execPath, ...args], { cwd: repoRoot, env, stdio: 'inherit' })
    : spawn(process.execPath, args, { cwd: repoRoot, env, stdio: 'inherit' })
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready && feeds.size === 1) break
    await sleep(100)
  }
  let ticks: { stop(): void } | null = null
  return {
    pid: child.pid!,
    url: `ws://127.0.0.1:${port}/ws`,
    async startTicks() {
      ticks = startTickGenerator(scenario, (_topic, frame) => {
        const text = upstreamFrame(frame)
        for (const feed of feeds) feed.send(text)
      })
    },
    async stop() {
      ticks?.stop()
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      for (const feed of feeds) feed.terminate()
      wss.close()
      http.close()
    },
  }
}

async function measure(name: string, running: Running, clients: number, seconds: number): Promise<void> {
  const fleet = new LeanClientFleet({ url: running.url, protocol: 'ws', clients, scenario })
  try {
    await sleep(300)
    const rssBefore = readRssBytes(running.pid) ?? 0
    const connect = await fleet.connect()
    await running.startTicks()
    const first = await fleet.waitUntilAllReceived(30_000)
    await sleep(2000)
    const cpuBefore = readCpuMicros(running.pid) ?? 0
    const end = fleet.startWindow()
    await sleep(seconds * 1000)
    const window = end()
    const cpu = (readCpuMicros(running.pid) ?? 0) - cpuBefore
    const rssPerConnectionKb = ((readRssBytes(running.pid) ?? 0) - rssBefore) / 1024 / connect.opened
    const storm = await fleet.reconnectStorm()
    console.log(
      JSON.stringify({
        system: name,
        clients,
        opened: connect.opened,
        firstFrameMissing: first.missing,
        deliveriesPerSecond: Math.round(window.deliveriesPerSecond),
        expectedPerSecond: Math.round(window.expectedPerSecond),
        serverCpuPercent: Math.round(cpu / 10_000 / window.seconds),
        cpuMicrosPerDelivery: Number((cpu / window.deliveries).toFixed(3)),
        latencyMs: window.latencyMs,
        clientCpuPercent: Math.round(window.clientCpuPercent),
        rssPerConnectionKb: Number(rssPerConnectionKb.toFixed(1)),
        storm: { ms: Math.round(storm.ms), failed: storm.failed, missing: storm.missing },
      }),
    )
  } finally {
    fleet.close()
    await running.stop()
  }
}

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    systems: { type: 'string', default: 'bare,memory,redis' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    /** multiplies every tick rate, to find the load at which one client process still keeps up */
    'rate-scale': { type: 'string', default: '1' },
  },
})
const rateScale = Number(values['rate-scale'])
const { DETAIL, TRADE, KLINE } = defaultScenario.rates
const scenario = {
  ...defaultScenario,
  rates: { DETAIL: DETAIL * rateScale, TRADE: TRADE * rateScale, KLINE: KLINE * rateScale },
}
pinSelf('0')
const systems = values.systems.split(',')
for (const clients of values.clients.split(',').map(Number)) {
  for (const system of systems) {
    if (system === 'bare') {
      const bare = socketSystems.find((s) => s.name === 'bare ws')!
      const started = await bare.start({
        scenario,
        runId: 'live-bench',
        serverCpus: hasTaskset() ? '1' : undefined,
        redisUrl: values['redis-url'],
      })
      await measure('bare ws', started, clients, Number(values.seconds))
    } else {
      const running = await startGatewaySystem(system === 'redis' ? values['redis-url'] : null)
      await measure(`gateway (${system} bus)`, running, clients, Number(values.seconds))
    }
  }
}
process.exit(0)
