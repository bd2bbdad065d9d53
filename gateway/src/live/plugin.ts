import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Socket } from 'node:net'
import fp from 'fastify-plugin'
import { WebSocketServer, type WebSocket } from 'ws'
import { CALLS, WS_CLOSE } from '@tradegate/shared'
import { parseTrustProxy, type GatewayConfig } from '../config'
import { publishOnTopics, type Bus } from './bus'
import { MemoryBus } from './memory-bus'
import { RedisBus } from './redis-bus'
import { TopicHub } from './hub'
import { ClientSocket } from './client-socket'
import { CoinSymbols } from './coin-symbols'
import { FeedClient } from './feed'
import { FeedLease } from './lease'
import { UserResolver } from './user-resolver'
import { SOCKET_PATH, clientAddress, originAllowed, parseAllowedOrigins } from './upgrade-guard'

// Live market data: the feed (behind the lease when Redis is configured), the bus, the hub and
// the client socket endpoint /ws/:id on the Fastify server's upgrade event.

export interface LiveService {
  bus: Bus
  hub: TopicHub
  feed: FeedClient
  lease: FeedLease | null
  symbols: CoinSymbols
  readonly connections: number
}

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveService
  }
}

/** Pings go out in this many slices per interval. */
const PING_SLICES = 25

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  socket.destroy()
}

export const livePlugin = fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const { metrics, log } = app
    const redisBus = app.redis
      ? new RedisBus({
          url: config.REDIS_URL,
          prefix: app.redisPrefix,
          received: metrics.busMessages,
          onStatus: (up) => log.info({ event: up ? 'bus_up' : 'bus_down' }, `bus ${up ? 'up' : 'down'}`),
          onError: (error) => log.debug({ event: 'bus_error', err: error.message }, 'bus redis error'),
        })
      : null
    const bus: Bus = redisBus ?? new MemoryBus(metrics.busMessages)
    const hub = new TopicHub(bus, {
      softBufferBytes: config.WS_SOFT_BUFFER_BYTES,
      hardBufferBytes: config.WS_HARD_BUFFER_BYTES,
      maxTopics: config.WS_MAX_TOPICS,
      metrics,
    })
    // the coin list through the gateway's own cached call, as a browser reads it
    const symbols = new CoinSymbols({
      log,
      load: async () => {
        const answer = await app.inject({ method: 'GET', url: CALLS.getCoinList.path })
        if (answer.statusCode !== 200) throw new Error(`getCoinList answered ${answer.statusCode}`)
        return answer.json()
      },
    })
    const users = new UserResolver({
      upstreamUrl: config.UPSTREAM_URL,
      timeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS * 2,
    })
    const feed = new FeedClient({
      upstreamUrl: config.UPSTREAM_URL,
      token: config.FEED_TOKEN,
      silenceMs: config.FEED_SILENCE_MS,
      connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
      publish: (topics, frame, snapshot) => publishOnTopics(bus, topics, frame, snapshot),
      metrics,
      log,
    })
    const lease = app.redis
      ? new FeedLease({
          redis: app.redis,
          key: `${app.redisPrefix}feed:lease`,
          holder: `${config.INSTANCE_ID}:${Math.random().toString(36).slice(2, 10)}`,
          leaseMs: config.FEED_LEASE_MS,
          log,
          onChange: ({ leader, confirmed }) => {
            metrics.feedLeader.set(leader ? 1 : 0)
            // an unconfirmed holder (Redis was away) serves only its own sockets until it renews
            if (redisBus) redisBus.publishRemotely = confirmed
            if (leader) feed.start()
            else void feed.stop()
          },
        })
      : null

    // ready: the ingesting instance has its upstream feed open; a follower has seen a live lease holder
    app.readiness.check('feed', () => {
      if (!lease || lease.leader) return feed.connected ? null : 'upstream feed not connected'
      return Date.now() - lease.otherHolderSeenAt < 2 * config.FEED_LEASE_MS
        ? null
        : 'no instance holds the feed lease'
    })
    if (redisBus) app.readiness.check('bus', () => (redisBus.up ? null : 'redis pub/sub unreachable'))

    const sockets = new Set<ClientSocket>()
    const perAddress = new Map<string, number>()
    const allowedOrigins = parseAllowedOrigins(config.ALLOWED_ORIGINS)
    const addressOf = clientAddress(parseTrustProxy(config.TRUST_PROXY))
    const limits = {
      maxSubscriptions: config.WS_MAX_SUBSCRIPTIONS,
      maxFramesPerSecond: config.WS_MAX_FRAMES_PER_SECOND,
    }
    const resolveUser = (token: string) => users.resolve(token)
    const refused = (reason: string) => metrics.rejectedRequests.inc({ reason })
    let nextSocketId = 1
    const pingSlots = Array.from({ length: PING_SLICES }, () => new Set<ClientSocket>())
    let draining = false
    const server = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: config.WS_MAX_PAYLOAD_BYTES,
      clientTracking: false,
    })

    const accept = (ws: WebSocket, raw: Socket, address: string, clientId: string): void => {
      const socketId = nextSocketId++
      const client = new ClientSocket(ws, raw, { hub, limits, resolveUser, symbols, refused })
      const pingSlot = pingSlots[socketId % PING_SLICES]!
      sockets.add(client)
      pingSlot.add(client)
      perAddress.set(address, (perAddress.get(address) ?? 0) + 1)
      metrics.wsConnections.inc()
      log.info({ event: 'ws_open', socket: socketId, clientId }, 'socket open')
      ws.on('error', (error) =>
        log.debug({ event: 'ws_error', socket: socketId, err: error.message }, 'socket error'),
      )
      ws.once('close', (code) => {
        client.leaveAll()
        sockets.delete(client)
        pingSlot.delete(client)
        const left = (perAddress.get(address) ?? 1) - 1
        if (left > 0) perAddress.set(address, left)
        else perAddress.delete(address)
        metrics.wsConnections.dec()
        log.info({ event: 'ws_close', socket: socketId, clientId, closeCode: code }, 'socket closed')
      })
    }

    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
      socket.on('error', () => socket.destroy())
      const path = SOCKET_PATH.exec(request.url ?? '')
      if (!path) return refuse(socket, 404, 'Not Found')
      if (draining) return refuse(socket, 503, 'Service Unavailable')
      if (!originAllowed(request.headers.origin, request.headers.host, allowedOrigins)) {
        return refuse(socket, 403, 'Forbidden')
      }
      const address = addressOf(request)
      if ((perAddress.get(address) ?? 0) >= config.WS_MAX_SOCKETS_PER_IP) {
        return refuse(socket, 429, 'Too Many Requests')
      }
      server.handleUpgrade(request, socket, head, (ws) => accept(ws, socket as Socket, address, path[1]!))
    }
    app.server.on('upgrade', onUpgrade)

    // one timer for every socket, pinging one slice of them per tick so that ten thousand pings never
    // stall a single event-loop turn; a socket that did not answer its previous ping is gone
    let pingTick = 0
    const pinger = setInterval(() => {
      const slot = pingSlots[pingTick++ % PING_SLICES]!
      for (const client of slot) {
        if (!client.alive) {
          client.ws.terminate()
          continue
        }
        client.alive = false
        client.ws.ping()
      }
    }, config.WS_PING_INTERVAL_MS / PING_SLICES)
    pinger.unref()

    app.decorate<LiveService>('live', {
      bus,
      hub,
      feed,
      lease,
      symbols,
      get connections() {
        return sockets.size
      },
    })

    app.addHook('onReady', async () => {
      void symbols.refresh()
      if (lease) lease.start()
      else feed.start()
    })
    // sockets must be gone before the HTTP server can finish closing
    app.addHook('preClose', async () => {
      draining = true
      clearInterval(pinger)
      app.server.off('upgrade', onUpgrade)
      const closing = [...sockets].map(
        (client) =>
          new Promise<void>((resolve) => {
            client.ws.once('close', () => resolve())
            client.ws.close(WS_CLOSE.goingAway, 'server shutting down')
            setTimeout(() => {
              client.ws.terminate()
              resolve()
            }, 1000).unref()
          }),
      )
      await Promise.all(closing)
    })
    app.addHook('onClose', async () => {
      await lease?.stop()
      await feed.stop()
      hub.close()
      await bus.close()
      server.close()
    })
  },
  { name: 'live', dependencies: ['metrics', 'health', 'redis'] },
)
