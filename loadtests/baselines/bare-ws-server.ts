/**
 * The floor: a bare `ws` server with the gateway's subscribe protocol and topic map, writing one
 * pre-built frame to every subscriber. No limits, no backpressure handling, no metrics.
 *
 * Child process: `node --import tsx baselines/bare-ws-server.ts [--port N] [--scenario JSON]
 *   [--ticks-on-command] [--feed-token T]` prints {"event":"listening","port":N,"pid":P} and publishes
 * the scenario's ticks (with --ticks-on-command, once {"cmd":"start-ticks"} arrives on stdin).
 * With --feed-token it is also an upstream feed: a socket presenting the token (the gateway's feed
 * client) receives every frame, like the sandbox's feed socket.
 */
import { parseArgs } from 'node:util'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import { FEED_TOKEN_HEADER } from '@tradegate/shared'
import { announceListening, isMainModule, LISTEN_BACKLOG, runTicks } from '../bench/child-process'
import {
  parseScenarioArg,
  startTickGenerator,
  topicOfSubscribe,
  type SubscribeFrame,
} from '../bench/scenario'

export interface BareWsServer {
  port: number
  /** Base URL; clients connect to `${wsUrl}/<uuid>` like they do to the gateway. */
  wsUrl: string
  /** Sends `frame` as-is to every subscriber of `topic` and keeps it as the topic's snapshot. */
  publish(topic: string, frame: string): void
  readonly connections: number
  subscribers(topic: string): number
  close(): Promise<void>
}

const BAD_FRAME = JSON.stringify({ type: 'error', code: 400, msg: 'bad_frame' })
const TYPES = new Set(['DETAIL', 'KLINE', 'TRADE'])

function parseSubscribe(data: RawData): SubscribeFrame | undefined {
  try {
    const frame = JSON.parse(data.toString()) as Partial<SubscribeFrame>
    const validOperation = frame.operation === 'subscribe' || frame.operation === 'unsubscribe'
    if (!validOperation || !TYPES.has(frame.type ?? '') || typeof frame.symbol !== 'string') return undefined
    return frame as SubscribeFrame
  } catch {
    return undefined
  }
}

export function startBareWsServer(
  options: { port?: number; host?: string; feedToken?: string } = {},
): Promise<BareWsServer> {
  const topics = new Map<string, Set<WebSocket>>()
  const feeds = new Set<WebSocket>()
  // Frames are kept as bytes so a broadcast never re-encodes the string once per socket.
  const snapshots = new Map<string, Buffer>()
  const wss = new WebSocketServer({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    perMessageDeflate: false,
    clientTracking: true,
    backlog: LISTEN_BACKLOG,
  })

  wss.on('connection', (socket, request) => {
    if (options.feedToken && request.headers[FEED_TOKEN_HEADER] === options.feedToken) {
      feeds.add(socket)
      socket.on('close', () => feeds.delete(socket))
      return
    }
    const own = new Set<string>()
    socket.on('message', (data, isBinary) => {
      const frame = isBinary ? undefined : parseSubscribe(data)
      if (!frame) {
        socket.send(BAD_FRAME)
        return
      }
      const topic = topicOfSubscribe(frame)
      if (frame.operation === 'unsubscribe') {
        own.delete(topic)
        topics.get(topic)?.delete(socket)
        return
      }
      own.add(topic)
      let set = topics.get(topic)
      if (!set) topics.set(topic, (set = new Set()))
      set.add(socket)
      const snapshot = snapshots.get(topic)
      if (snapshot) socket.send(snapshot, { binary: false })
    })
    socket.on('close', () => {
      for (const topic of own) topics.get(topic)?.delete(socket)
    })
    socket.on('error', () => socket.terminate())
  })

  const publish = (topic: string, frame: string): void => {
    const bytes = Buffer.from(frame)
    snapshots.set(topic, bytes)
    for (const feed of feeds) if (feed.readyState === WebSocket.OPEN) feed.send(bytes, { binary: false })
    const set = topics.get(topic)
    if (!set) return
    for (const socket of set) if (socket.readyState === WebSocket.OPEN) socket.send(bytes, { binary: false })
  }

  return new Promise((resolve, reject) => {
    wss.once('error', reject)
    wss.once('listening', () => {
      wss.off('error', reject)
      const { port, address } = wss.address() as AddressInfo
      resolve({
        port,
        wsUrl: `ws://${address}:${port}/ws`,
        publish,
        get connections() {
          return wss.clients.size
        },
        subscribers: (topic) => topics.get(topic)?.size ?? 0,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of wss.clients) socket.terminate()
            wss.close(() => done())
          }),
      })
    })
  })
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      scenario: { type: 'string' },
      'ticks-on-command': { type: 'boolean', default: false },
      'feed-token': { type: 'string' },
    },
  })
  const scenario = parseScenarioArg(values.scenario)
  const server = await startBareWsServer({ port: Number(values.port ?? 0), feedToken: values['feed-token'] })
  runTicks(
    () => startTickGenerator(scenario, (topic, frame) => server.publish(topic, JSON.stringify(frame))),
    values['ticks-on-command'] ?? false,
    server.close,
  )
  announceListening(server.port)
}
