/**
 * What a team would pick instead of the gateway: Socket.IO 4, one room per topic, and the Redis
 * adapter so several instances could share the rooms. Same subscribe objects, same frame objects.
 *
 * Child process: `node --import tsx baselines/socketio-server.ts [--port N] [--scenario JSON]
 *   [--redis-url URL] [--key-prefix P] [--ticks-on-command]` prints {"event":"listening","port":N,"pid":P}.
 */
import http from 'node:http'
import { parseArgs } from 'node:util'
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { Server } from 'socket.io'
import { createAdapter } from '@socket.io/redis-adapter'
import { Redis } from 'ioredis'
import { announceListening, isMainModule, LISTEN_BACKLOG, runTicks } from '../bench/child-process'
import {
  parseScenarioArg,
  startTickGenerator,
  topicOfSubscribe,
  type ServerFrame,
  type SubscribeFrame,
} from '../bench/scenario'

/** Client and server both use the one event name the protocol needs, like `socket.send` does. */
export const FRAME_EVENT = 'message'

export interface SocketIoServer {
  port: number
  url: string
  /** Emits to the topic's room (through the Redis adapter) and keeps the frame as the snapshot. */
  publish(topic: string, frame: ServerFrame): void
  readonly connections: number
  close(): Promise<void>
}

export interface SocketIoServerOptions {
  port?: number
  host?: string
  redisUrl?: string
  /** Adapter channel prefix; unique per run so parallel runs never hear each other. */
  keyPrefix?: string
}

export async function startSocketIoServer(options: SocketIoServerOptions = {}): Promise<SocketIoServer> {
  const pubClient = new Redis(options.redisUrl ?? 'redis://127.0.0.1:6379', { lazyConnect: true })
  const subClient = pubClient.duplicate()
  await Promise.all([pubClient.connect(), subClient.connect()])

  const httpServer = http.createServer()
  const io = new Server(httpServer, {
    serveClient: false,
    perMessageDeflate: false,
    adapter: createAdapter(pubClient, subClient, {
      key: options.keyPrefix ?? `loadtests:socket.io:${randomUUID()}`,
    }),
  })
  const snapshots = new Map<string, ServerFrame>()

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
      const snapshot = snapshots.get(topic)
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
    publish(topic, frame) {
      snapshots.set(topic, frame)
      io.to(topic).emit(FRAME_EVENT, frame)
    },
    get connections() {
      return io.engine.clientsCount
    },
    async close() {
      io.disconnectSockets(true)
      await new Promise<void>((resolve) => io.close(() => resolve()))
      pubClient.disconnect()
      subClient.disconnect()
    },
  }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      scenario: { type: 'string' },
      'redis-url': { type: 'string' },
      'key-prefix': { type: 'string' },
      'ticks-on-command': { type: 'boolean', default: false },
    },
  })
  const server = await startSocketIoServer({
    port: Number(values.port ?? 0),
    redisUrl: values['redis-url'],
    keyPrefix: values['key-prefix'],
  })
  const scenario = parseScenarioArg(values.scenario)
  runTicks(
    () => startTickGenerator(scenario, server.publish),
    values['ticks-on-command'] ?? false,
    server.close,
  )
  announceListening(server.port)
}
