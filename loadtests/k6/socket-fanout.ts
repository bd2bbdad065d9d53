/**
 * Socket fan-out: ramping virtual users, each one browser tab that opens `/ws/<uuid>`, subscribes
 * to DETAIL, KLINE(1min) and TRADE for 1–3 symbols (30% on btcusdt), and stays connected.
 *
 *   k6 run -e TARGET_URL=https://gateway.example.com loadtests/k6/socket-fanout.ts
 *
 * Env: TARGET_URL (http(s) base, default http://localhost:8080), PEAK_VUS (default 1000),
 * HOLD (how long to stay at the peak, default 2m), SYMBOLS (comma list, default 8 common pairs).
 */
import { check } from 'k6'
import { Counter, Rate, Trend } from 'k6/metrics'
import { setTimeout } from 'k6/timers'
import { WebSocket, type MessageEvent } from 'k6/websockets'
import type { Options } from 'k6/options'

const TARGET_URL = (__ENV.TARGET_URL ?? 'http://localhost:8080').replace(/\/$/, '')
const WS_URL = TARGET_URL.replace(/^http/, 'ws')
const PEAK_VUS = Number(__ENV.PEAK_VUS ?? 1000)
const HOLD = __ENV.HOLD ?? '2m'
const SYMBOLS = (__ENV.SYMBOLS ?? 'btcusdt,ethusdt,solusdt,xrpusdt,dogeusdt,adausdt,trxusdt,linkusdt').split(
  ',',
)
/** How long one virtual user keeps its socket before reconnecting, like a tab left open. */
const SESSION_MS = Number(__ENV.SESSION_MS ?? 60_000)

export const options: Options = {
  scenarios: {
    fanout: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '1m', target: Math.ceil(PEAK_VUS / 4) },
        { duration: '2m', target: PEAK_VUS },
        { duration: HOLD, target: PEAK_VUS },
        { duration: '30s', target: 0 },
      ],
      gracefulRampDown: '10s',
    },
  },
  thresholds: {
    ws_tick_latency: ['p(50)<20', 'p(99)<100'],
    ws_errors: ['rate<0.01'],
    ws_subscribed: ['rate>0.99'],
  },
}

/** Publish time (the frame's top-level `ts`) to the moment k6 received the frame, in ms. */
const tickLatency = new Trend('ws_tick_latency', true)
const frames = new Counter('ws_frames')
/** Share of sessions that failed to open, errored or closed before their time. */
const errors = new Rate('ws_errors')
/** Share of sessions that received a frame after subscribing. */
const subscribed = new Rate('ws_subscribed')

function uuid(): string {
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = Math.floor(Math.random() * 16)
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16)
  })
}

function pickSymbols(): string[] {
  const count = 1 + Math.floor(Math.random() * 3)
  const chosen = new Set<string>()
  if (Math.random() < 0.3) chosen.add('btcusdt')
  const others = SYMBOLS.filter((symbol) => symbol !== 'btcusdt')
  while (chosen.size < Math.min(count, SYMBOLS.length)) {
    chosen.add(others[Math.floor(Math.random() * others.length)] ?? 'btcusdt')
  }
  return [...chosen]
}

/** Reads `"ts":<number>` nearest the end of the frame, where the protocol puts the publish time. */
function publishTs(text: string): number | undefined {
  const at = text.lastIndexOf('"ts":')
  if (at < 0) return undefined
  const value = parseFloat(text.slice(at + 5))
  return Number.isFinite(value) ? value : undefined
}

export default function (): void {
  const ws = new WebSocket(`${WS_URL}/ws/${uuid()}`)
  let gotFrame = false
  let failed = false
  let closingByUs = false
  let sampled = 0

  ws.addEventListener('open', () => {
    for (const symbol of pickSymbols()) {
      ws.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol }))
      ws.send(JSON.stringify({ operation: 'subscribe', type: 'KLINE', symbol, interval: '1min' }))
      ws.send(JSON.stringify({ operation: 'subscribe', type: 'TRADE', symbol }))
    }
    setTimeout(() => {
      closingByUs = true
      ws.close()
    }, SESSION_MS)
  })

  ws.addEventListener('message', (event) => {
    const { data } = event as MessageEvent
    if (typeof data !== 'string') return
    frames.add(1)
    if (data.startsWith('{"type":"error"')) {
      failed = true
      return
    }
    gotFrame = true
    // One frame in four is enough for the percentiles and keeps k6's own CPU off the critical path.
    if (sampled++ % 4 !== 0) return
    const ts = publishTs(data)
    if (ts !== undefined) tickLatency.add(Date.now() - ts)
  })

  ws.addEventListener('error', () => {
    failed = true
  })

  ws.addEventListener('close', () => {
    check(gotFrame, { 'received frames after subscribing': (ok) => ok })
    subscribed.add(gotFrame)
    errors.add(failed || !closingByUs)
  })
}
