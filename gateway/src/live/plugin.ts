import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import fp from 'fastify-plugin'
import websocket from '@fastify/websocket'
import type { WebSocket } from 'ws'
import { WS_CLOSE } from '@tradegate/shared'
import type { GatewayConfig } from '../config'
import { publishOnTopics, type Bus } from './bus'
import { MemoryBus } from './memory-bus'
import { RedisBus } from './redis-bus'
import { TopicHub } from './hub'
import { ClientSocket, type ClientSocketDeps } from './client-socket'
import { CoinSymbols } from './coin-symbols'
import { FeedClient } from './feed'
import { FeedLease } from './lease'
import { FeedRole } from './feed-role'
import { UserResolver } from './user-resolver'
import { SessionAuth } from './sessions'
import { SOCKET_PATH, originAllowed, parseAllowedOrigins, refuseUpgrade } from './upgrade-guard'
import { PING_TIMEOUT, SocketLog, logRefusedUpgrade } from './socket-log'

// Live market data: the feed (behind the lease when Redis is configured), the bus, the hub and
// the client socket endpoint /ws/:id, a @fastify/websocket route behind the upgrade guard.

export interface LiveService {
  bus: Bus
  hub: TopicHub
  feed: FeedClient
  lease: FeedLease | null
  role: FeedRole
  symbols: CoinSymbols
  readonly connections: number
}

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveService
  }
}

/**
 * Node leaves the upgrade's unanswered response attached to the socket, and the websocket plugin
 * gives the socket an error listener that closes over the request and reply: together they would
 * keep the upgrade's Fastify request, reply, logger and headers, about 3 KiB, for the socket's whole
 * life. Neither is needed once the socket is open.
 */
function releaseUpgradeRequest(ws: WebSocket, raw: Socket): void {
  ;(raw as Socket & { _httpMessage?: ServerResponse | null })._httpMessage?.detachSocket(raw)
  ws.removeAllListeners('error')
}

/** A coin list slower than this counts as failed, so a hung upstream never holds subscriptions long. */
const COIN_LIST_TIMEOUT_MS = 3000

/** Pings go out in this many slices per interval. */
const PING_SLICES = 25

export const livePlugin = fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const { metrics, log } = app
    const redisBus = app.redis
      ? new RedisBus({
          url: config.REDIS_URL,
          prefix: app.redisPrefix,
          received: metrics.busMessages,
          onStatus: (up) => {
            log.info({ event: up ? 'bus_up' : 'bus_down' }, `bus ${up ? 'up' : 'down'}`)
            role.busChanged(up)
          },
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
    // both reach the upstream through the REST path's client: one pool, one set of timeouts and metrics
    const upstream = app.upstream
    const symbols = new CoinSymbols({
      log,
      // the REST path's cached read: the list read for amount precisions at start serves sockets too
      load: () => app.readCoinList(),
      timeoutMs: COIN_LIST_TIMEOUT_MS,
    })
    const users = new UserResolver({ upstream, timeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS * 2 })
    const feed = new FeedClient({
      upstreamUrl: config.UPSTREAM_URL,
      token: config.FEED_TOKEN,
      silenceMs: config.FEED_SILENCE_MS,
      connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
      publish: (topics, frame, snapshot) => {
        if (role.mayDeliver()) publishOnTopics(bus, topics, frame, snapshot)
      },
      onOpen: (regained) => role.feedOpened(regained),
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
          onChange: (state) => role.leaseChanged(state),
        })
      : null
    const sockets = new Set<ClientSocket>()
    const role = new FeedRole({
      feed,
      bus,
      lease,
      redisBus,
      leaseMs: config.FEED_LEASE_MS,
      metrics,
      log,
      broadcast: (frame) => {
        let sent = 0
        const parsed = JSON.parse(frame) as object
        for (const client of sockets) {
          if (client.topics.size === 0 && client.userTypes.size === 0) continue
          client.sendJson(parsed)
          sent++
        }
        return sent
      },
    })

    // REST does not need the live feed or the bus: their state is reported, not made a reason
    app.readiness.report('feed', () => role.describe())
    if (redisBus) app.readiness.report('bus', () => (redisBus.up ? 'up' : 'down'))

    const perAddress = new Map<string, number>()
    const allowedOrigins = parseAllowedOrigins(config.ALLOWED_ORIGINS)
    const limits = {
      maxSubscriptions: config.WS_MAX_SUBSCRIPTIONS,
      maxFramesPerSecond: config.WS_MAX_FRAMES_PER_SECOND,
    }
    const sessions = new SessionAuth({
      bus,
      redis: app.redis,
      prefix: app.redisPrefix,
      log,
      users,
      takeFromBudget: (address) => app.takeFromBudget(address),
    })
    app.decorate('sessionEnds', sessions.ends)
    const clientDeps: ClientSocketDeps = {
      hub,
      limits,
      symbols,
      authenticate: (token, address) => sessions.authenticate(token, address),
      sessionChanged: (client, previous) => sessions.moved(client, previous),
      refused: (reason) => metrics.rejectedRequests.inc({ reason }),
    }
    let nextSocketId = 1
    const pingSlots = Array.from({ length: PING_SLICES }, () => new Set<ClientSocket>())
    let draining = false
    await app.register(websocket, {
      options: { perMessageDeflate: false, maxPayload: config.WS_MAX_PAYLOAD_BYTES, clientTracking: false },
      // sockets are closed with 1001 by this plugin's own preClose hook below
      preClose: (done) => done(),
      errorHandler: (error, socket) => {
        log.debug({ event: 'ws_error', err: error.message }, 'socket error')
        socket.terminate()
      },
    })

    const accept = (ws: WebSocket, raw: Socket, address: string, clientId: string): void => {
      releaseUpgradeRequest(ws, raw)
      const socketId = nextSocketId++
      const socketLog = new SocketLog(log, socketId, clientId)
      const client = new ClientSocket(ws, raw, address, clientDeps, socketLog)
      const pingSlot = pingSlots[socketId % PING_SLICES]!
      sockets.add(client)
      pingSlot.add(client)
      perAddress.set(address, (perAddress.get(address) ?? 0) + 1)
      metrics.wsConnections.inc()
      socketLog.connected(sockets.size)
      ws.on('error', (error) => {
        socketLog.error(error)
        ws.terminate()
      })
      ws.once('close', (code, reason) => {
        client.leaveAll()
        sessions.left(client)
        sockets.delete(client)
        pingSlot.delete(client)
        const left = (perAddress.get(address) ?? 1) - 1
        if (left > 0) perAddress.set(address, left)
        else perAddress.delete(address)
        metrics.wsConnections.dec()
        metrics.wsClosed.inc({ reason: socketLog.closeKind() })
        socketLog.closed(code, reason.toString(), sockets.size)
      })
    }

    // every upgrade request, whatever its path, is checked before any WebSocket work is done; the
    // websocket plugin then destroys the socket of any upgrade answered with a status
    // an upgrade answered by a hook that ran before the websocket plugin's own (the drain answer)
    // is not closed by that plugin: close it here, or its socket would outlive the answer and hold
    // the server open
    app.addHook('onResponse', (request, _reply, done) => {
      // Node marks a request that came through the server's 'upgrade' event
      const upgrade = (request.raw as IncomingMessage & { upgrade?: boolean }).upgrade
      if (upgrade && request.ws !== true) request.raw.socket.destroy()
      done()
    })
    app.addHook('onRequest', async (request, reply) => {
      if (!request.ws) return
      const path = SOCKET_PATH.exec(request.url)
      if (!path) {
        metrics.wsRefused.inc({ reason: 'path' })
        logRefusedUpgrade(log, 404, 'path')
        return refuseUpgrade(reply, 404)
      }
      const clientId = path[1]!
      if (draining) {
        metrics.wsRefused.inc({ reason: 'draining' })
        logRefusedUpgrade(log, 503, 'draining', clientId)
        return refuseUpgrade(reply, 503)
      }
      if (!originAllowed(request.headers.origin, request.headers.host, allowedOrigins)) {
        metrics.wsRefused.inc({ reason: 'origin' })
        logRefusedUpgrade(log, 403, 'origin', clientId, request.headers.origin)
        return refuseUpgrade(reply, 403)
      }
      if ((perAddress.get(request.ip) ?? 0) >= config.WS_MAX_SOCKETS_PER_IP) {
        metrics.wsRefused.inc({ reason: 'too_many_sockets' })
        logRefusedUpgrade(log, 429, 'tooManySockets', clientId)
        return refuseUpgrade(reply, 429)
      }
    })
    for (const url of ['/ws/:id', '/ws/:id/'])
      app.get<{ Params: { id: string } }>(url, { websocket: true }, (ws, request) =>
        accept(ws, request.raw.socket as Socket, request.ip, request.params.id),
      )

    // one timer for every socket, pinging one slice of them per tick so that ten thousand pings never
    // stall a single event-loop turn; a socket that did not answer its previous ping is gone
    let pingTick = 0
    const pinger = setInterval(() => {
      const slot = pingSlots[pingTick++ % PING_SLICES]!
      for (const client of slot) {
        if (!client.alive) {
          client.log?.closing(1006, PING_TIMEOUT)
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
      role,
      symbols,
      get connections() {
        return sockets.size
      },
    })

    // the coin list is first read when the first market subscription needs it, not at start
    app.addHook('onReady', async () => {
      if (lease) return lease.start()
      // without Redis there is no lease: this instance reads the feed itself, so it is the leader
      role.startAlone()
    })
    // sockets must be gone before the HTTP server can finish closing
    app.addHook('preClose', async () => {
      draining = true
      clearInterval(pinger)
      const closing = [...sockets].map(
        (client) =>
          new Promise<void>((resolve) => {
            client.ws.once('close', () => resolve())
            client.log?.closing(WS_CLOSE.goingAway, 'server shutting down')
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
      role.close()
      hub.close()
      await bus.close()
      app.websocketServer.close()
    })
  },
  { name: 'live', dependencies: ['metrics', 'health', 'redis', 'api', 'rate-limit'] },
)
