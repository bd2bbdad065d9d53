/**
 * The floor: a bare `ws` server with the gateway's subscribe protocol and topic map, writing one
 * pre-built frame to every subscriber. No limits, no backpressure handling, no metrics.
 *
 * Two write paths:
 * - plain: `ws.send` once per frame per socket, so every delivery is its own write to the kernel;
 * - corked (`--cork`): each socket's frames of one event-loop turn go out in one write, as the
 *   gateway writes them;
 * - pre-framed (`--preframed`, corked too): each frame's WebSocket header is built once per publish
 *   and the same bytes written to every subscriber's TCP socket, so nothing is framed per socket.
 *   This is the floor the gateway's own write path stands on: it too frames once per publish.
 *
 * Child process: `node --import tsx baselines/bare-ws-server.ts --feed URL --feed-token T
 *   [--cork | --preframed] [--port N]` prints {"event":"listening","port":N,"pid":P} once its feed socket is open, then
 * publishes every frame of the tick feed (`baselines/tick-feed.ts`) to its subscribers.
 */
import { parseArgs } from 'node:util'
import type { AddressInfo, Socket } from 'node:net'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import { announceListening, exitOnSignal, isMainModule, LISTEN_BACKLOG } from '../bench/child-process'
import { topicOfSubscribe, type SubscribeFrame } from '../bench/scenario'
import { DepthBooks, subscribeToFeed } from './feed-subscriber'

export interface BareWsServer {
  port: number
  /** Base URL; clients connect to `${wsUrl}/<uuid>` like they do to the gateway. */
  wsUrl: string
  /** Sends `frame` as-is to every subscriber of `topic` and keeps it as the topic's snapshot. */
  publish(topic: string, frame: string): void
  /** Keeps a DEPTH book, whose snapshot a new subscriber gets instead of the last update. */
  readonly books: DepthBooks
  readonly connections: number
  subscribers(topic: string): number
  close(): Promise<void>
}

const BAD_FRAME = JSON.stringify({ type: 'error', code: 400, msg: 'bad_frame' })
const TYPES = new Set(['DETAIL', 'KLINE', 'TRADE', 'DEPTH'])

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

/** One unmasked, final text frame (server to client): header and payload in one buffer. */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10
  const frame = Buffer.allocUnsafe(headerLength + length)
  frame[0] = 0x81
  if (length < 126) frame[1] = length
  else if (length < 65_536) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    frame.writeBigUInt64BE(BigInt(length), 2)
  }
  payload.copy(frame, headerLength)
  return frame
}

/** The TCP socket under a `ws` socket: corking it makes the frames of one turn one write. */
function tcpOf(socket: WebSocket): Socket {
  return (socket as unknown as { _socket: Socket })._socket
}

/** How a frame reaches a socket: `ws.send`, or with `preframed` the whole frame straight to TCP; corked or not. */
interface FrameWriter {
  /** The bytes to keep and send for a payload: itself, or with `preframed` the whole frame. */
  framed(payload: Buffer): Buffer
  /** `bytes` is what `framed` gave. */
  send(socket: WebSocket, bytes: Buffer): void
}

function frameWriter(cork: boolean, preframed: boolean): FrameWriter {
  let corked: Socket[] = []
  const uncorkAll = (): void => {
    const sockets = corked
    corked = []
    for (const socket of sockets) socket.uncork()
  }
  return {
    framed: (payload) => (preframed ? textFrame(payload) : payload),
    send(socket, bytes) {
      const tcp = tcpOf(socket)
      if (cork && tcp.writableCorked === 0) {
        tcp.cork()
        if (corked.length === 0) setImmediate(uncorkAll)
        corked.push(tcp)
      }
      if (preframed) tcp.write(bytes)
      else socket.send(bytes, { binary: false })
    },
  }
}

/** Who subscribes to what, and the frame a new subscriber of a topic gets first. */
interface TopicState {
  topics: Map<string, Set<WebSocket>>
  /** Frames are kept as bytes so a broadcast never re-encodes the string once per socket. */
  snapshots: Map<string, Buffer>
  books: DepthBooks
}

/** Subscribes and unsubscribes a socket by its frames; a subscriber gets the topic's snapshot at once. */
function serveSubscriptions(socket: WebSocket, state: TopicState, writer: FrameWriter): void {
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
      state.topics.get(topic)?.delete(socket)
      return
    }
    own.add(topic)
    let set = state.topics.get(topic)
    if (!set) state.topics.set(topic, (set = new Set()))
    set.add(socket)
    const depth = frame.type === 'DEPTH' ? state.books.snapshot(frame.symbol) : undefined
    const snapshot = depth ? writer.framed(Buffer.from(JSON.stringify(depth))) : state.snapshots.get(topic)
    if (snapshot) writer.send(socket, snapshot)
  })
  socket.on('close', () => {
    for (const topic of own) state.topics.get(topic)?.delete(socket)
  })
  socket.on('error', () => socket.terminate())
}

export function startBareWsServer(
  options: { port?: number; host?: string; cork?: boolean; preframed?: boolean } = {},
): Promise<BareWsServer> {
  const writer = frameWriter(Boolean(options.cork || options.preframed), Boolean(options.preframed))
  const state: TopicState = { topics: new Map(), snapshots: new Map(), books: new DepthBooks() }
  const wss = new WebSocketServer({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    perMessageDeflate: false,
    clientTracking: true,
    backlog: LISTEN_BACKLOG,
  })
  wss.on('connection', (socket) => serveSubscriptions(socket, state, writer))

  const publish = (topic: string, frame: string): void => {
    const bytes = writer.framed(Buffer.from(frame))
    state.snapshots.set(topic, bytes)
    const set = state.topics.get(topic)
    if (!set) return
    for (const socket of set) if (socket.readyState === WebSocket.OPEN) writer.send(socket, bytes)
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
        books: state.books,
        get connections() {
          return wss.clients.size
        },
        subscribers: (topic) => state.topics.get(topic)?.size ?? 0,
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
      feed: { type: 'string' },
      'feed-token': { type: 'string' },
      cork: { type: 'boolean', default: false },
      preframed: { type: 'boolean', default: false },
    },
  })
  if (!values.feed || !values['feed-token']) throw new Error('--feed URL and --feed-token T are required')
  const server = await startBareWsServer({
    port: Number(values.port ?? 0),
    cork: values.cork,
    preframed: values.preframed,
  })
  const feed = await subscribeToFeed(
    values.feed,
    values['feed-token'],
    (topic, _frame, text) => server.publish(topic, text),
    server.books,
  )
  exitOnSignal(async () => {
    feed.close()
    await server.close()
  })
  announceListening(server.port)
}
