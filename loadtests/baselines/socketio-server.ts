/**
 * What a team would pick instead of the gateway: Socket.IO 4, one room per topic, either its
 * in-memory adapter (one instance) or the Redis adapter (so several instances could share the
 * rooms). Same subscribe objects, same frame objects, fed by the same tick feed.
 *
 * Latest-value frames (DETAIL, KLINE) are emitted volatile, so Socket.IO may drop them for a socket
 * that cannot take them, as the gateway drops stale latest values for slow sockets. TRADE and
 * DEPTH updates are emitted reliably: a dropped trade is lost for good, and a dropped book update
 * would need a resync that Socket.IO does not do. Socket.IO drops a volatile packet whenever the
 * socket's previous write has not completed, not only for a slow client, so `--reliable` (every
 * emit reliable) is measured beside it.
 *
 * Child process: `node --import tsx baselines/socketio-server.ts --feed URL --feed-token T
 *   [--adapter memory|redis] [--reliable] [--redis-url URL] [--key-prefix P] [--port N]` prints
 *   {"event":"listening","port":N,"pid":P} once its feed socket is open.
 */
import http from 'node:http'
import { parseArgs } from 'node:util'
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { Server } from 'socket.io'
import { createAdapter } from '@socket.io/redis-adapter'
import { Redis } from 'ioredis'
import { announceListening, exitOnSignal, isMainModule, LISTEN_BACKLOG } from '../bench/child-process'
import { topicOfSubscribe, type ServerFrame, type SubscribeFrame } from '../bench/scenario'
import { DepthBooks, subscribeToFeed } from './feed-subscriber'

/** Client and server both use the one event name the protocol needs, like `socket.send` does. */
export const FRAME_EVENT = 'message'

export interface SocketIoServer {
  port: number
  url: string
  /** Emits to the topic's room and keeps the frame as the snapshot (DEPTH: `books` keeps the book). */
  publish(topic: string, frame: ServerFrame): void
  readonly books: DepthBooks
  readonly connections: number
  close(): Promise<void>
}

export interface SocketIoServerOptions {
  port?: number
  host?: string
  /** 'redis' (the default) shares rooms through Redis; 'memory' is Socket.IO's own adapter. */
  adapter?: 'memory' | 'redis'
  redisUrl?: string
  /** Adapter channel prefix; unique per run so parallel runs never hear each other. */
  keyPrefix?: string
  /** Every emit reliable, none volatile. */
  reliable?: boolean
}

const VOLATILE_TYPES = new Set(['DETAIL', 'KLINE'])

export async function startSocketIoServer(options: SocketIoServerOptions = {}): Promise<SocketIoServer> {
  const redis =
    options.adapter === 'memory'
      ? undefined
      : new Redis(options.redisUrl ?? 'redis://127.0.0.1:6379', { lazyConnect: true })
  const subClient = redis?.duplicate()
  if (redis && subClient) await Promise.all([redis.connect(), subClient.connect()])

  const httpServer = http.createServer()
  const io = new Server(httpServer, {
    serveClient: false,
    perMessageDeflate: false,
    ...(redis && subClient
      ? {
          adapter: createAdapter(redis, subClient, {
            key: options.keyPrefix ?? `loadtests:socket.io:${randomUUID()}`,
          }),
        }
      : {}),
  })
  const snapshots = new Map<string, ServerFrame>()
  const books = new DepthBooks()

  io.on('connection', (socket) => {
    socket.on(FRAME_EVENT, (frame: Partial<SubscribeFrame>) => {
      if (typeof frame !== 'object' || frame === null || typeof frame.symbol !== 'string' || !frame.type) {
        socket.emit(FRAME_EVENT, { type: 'error', code: 400, msg: 'bad_frame' })
        return
      }
      const topic = topicOfSubscribe(frame as SubscribeFrame)
      if (frame.operation === 'unsubscribe') {
        void socket.leave(topic)
        return
      }
      void socket.join(topic)
      const snapshot = frame.type === 'DEPTH' ? books.snapshot(frame.symbol) : snapshots.get(topic)
      if (snapshot) socket.emit(FRAME_EVENT, snapshot)
    })
  })

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(options.port ?? 0, options.host ?? '127.0.0.1', LISTEN_BACKLOG, () => resolve())
  })
  const { port, address } = httpServer.address() as AddressInfo

  return {
    port,
    url: `http://${address}:${port}`,
    books,
    publish(topic, frame) {
      if (frame.type !== 'DEPTH') snapshots.set(topic, frame)
      const room = io.to(topic)
      if (!options.reliable && VOLATILE_TYPES.has(frame.type)) room.volatile.emit(FRAME_EVENT, frame)
      else room.emit(FRAME_EVENT, frame)
    },
    get connections() {
      return io.engine.clientsCount
    },
    async close() {
      io.disconnectSockets(true)
      await new Promise<void>((resolve) => io.close(() => resolve()))
      redis?.disconnect()
      subClient?.disconnect()
    },
  }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      feed: { type: 'string' },
      'feed-token': { type: 'string' },
      adapter: { type: 'string', default: 'redis' },
      'redis-url': { type: 'string' },
      'key-prefix': { type: 'string' },
      reliable: { type: 'boolean', default: false },
    },
  })
  if (!values.feed || !values['feed-token']) throw new Error('--feed URL and --feed-token T are required')
  if (values.adapter !== 'memory' && values.adapter !== 'redis')
    throw new Error('--adapter is memory or redis')
  const server = await startSocketIoServer({
    port: Number(values.port ?? 0),
    adapter: values.adapter,
    redisUrl: values['redis-url'],
    keyPrefix: values['key-prefix'],
    reliable: values.reliable,
  })
  const feed = await subscribeToFeed(
    values.feed,
    values['feed-token'],
    (topic, frame) => server.publish(topic, frame),
    server.books,
  )
  exitOnSignal(async () => {
    feed.close()
    await server.close()
  })
  announceListening(server.port)
}
