import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { GatewayConfig } from '../config'
import { publishOnTopics, type Bus } from './bus'
import { MemoryBus } from './memory-bus'
import { RedisBus } from './redis-bus'
import { TopicHub } from './hub'
import type { ClientSocket, ClientSocketDeps } from './client-socket'
import { CoinSymbols } from './coin-symbols'
import { FeedClient } from './feed'
import { FeedLease } from './lease'
import { FeedRole } from './feed-role'
import { sessionEndOfStatus } from '../upstream/session-end'
import { SessionAuth } from './sessions'
import { registerSocketEndpoint } from './socket-endpoint'

// Live market data: the feed (behind the lease when Redis is configured), the bus, the hub, the
// sessions, and the client socket endpoint (socket-endpoint.ts) they serve.

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

/** A coin list slower than this counts as failed, so a hung upstream never holds subscriptions long. */
const COIN_LIST_TIMEOUT_MS = 3000

/** The bus: Redis pub/sub shared by every instance when Redis is configured, else this process's own. */
function createBus(
  app: FastifyInstance,
  config: GatewayConfig,
  busChanged: (up: boolean) => void,
  noticesMissed: () => void,
) {
  const { metrics, log } = app
  const redisBus = app.redis
    ? new RedisBus({
        url: config.REDIS_URL,
        prefix: app.redisPrefix,
        received: metrics.busMessages,
        onStatus: (up) => {
          log.info({ event: up ? 'bus_up' : 'bus_down' }, `bus ${up ? 'up' : 'down'}`)
          busChanged(up)
        },
        onNoticesMissed: () => {
          log.info(
            { event: 'bus_shard_resubscribed' },
            'bus shard subscribed again after its master was lost',
          )
          noticesMissed()
        },
        onError: (error) => log.debug({ event: 'bus_error', err: error.message }, 'bus redis error'),
      })
    : null
  const bus: Bus = redisBus ?? new MemoryBus(metrics.busMessages)
  return { bus, redisBus }
}

/**
 * The upstream feed, the lease that picks which instance reads it, and the role that follows both:
 * the lease holder publishes what the feed sends, the others deliver what the bus carries.
 */
function createFeedRole(
  app: FastifyInstance,
  config: GatewayConfig,
  { bus, redisBus }: ReturnType<typeof createBus>,
  sockets: ReadonlySet<ClientSocket>,
) {
  const { metrics, log } = app
  const feed = new FeedClient({
    upstreamUrl: config.UPSTREAM_URL,
    token: config.FEED_TOKEN,
    silenceMs: config.FEED_SILENCE_MS,
    connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
    publish: (topics, message, snapshot) => {
      role.frameRead(() => publishOnTopics(bus, topics, message, snapshot))
    },
    onFlowing: (regained) => role.feedFlowing(regained),
    // a logout the upstream pushes ends the user's sessions on every instance, as a sign-out here does
    onUserStatus: (userId, data) => {
      const how = sessionEndOfStatus(data)
      if (how) void app.sessions.end(how, { userId })
    },
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
        onReachableChange: () => role.leaseReachableChanged(),
      })
    : null
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
  return { feed, lease, role }
}

/** What every client socket is served by: the hub, its limits, the symbol check and the sessions. */
function createClientDeps(app: FastifyInstance, config: GatewayConfig, bus: Bus, hub: TopicHub) {
  const { metrics, log } = app
  const symbols = new CoinSymbols({
    log,
    // the REST path's cached read: the list read for amount precisions at start serves sockets too
    load: () => app.readCoinList(),
    timeoutMs: COIN_LIST_TIMEOUT_MS,
  })
  // the upstream floor's resolver and registry: one pool, one token-to-user map for REST and sockets
  const sessions = new SessionAuth({
    bus,
    registry: app.sessions,
    users: app.users,
    log,
    takeFromBudget: (address) => app.takeFromBudget(address),
  })
  const clientDeps: ClientSocketDeps = {
    hub,
    limits: {
      maxSubscriptions: config.WS_MAX_SUBSCRIPTIONS,
      maxFramesPerSecond: config.WS_MAX_FRAMES_PER_SECOND,
    },
    symbols,
    authenticate: (token, address) => sessions.authenticate(token, address),
    sessionChanged: (client, previous) => sessions.moved(client, previous),
    refused: (reason) => metrics.rejectedRequests.inc({ reason }),
  }
  return { symbols, sessions, clientDeps }
}

export const livePlugin = fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    let busLost = false
    const buses = createBus(
      app,
      config,
      (up) => {
        role.busChanged(up)
        // ends announced while this instance was cut off never reached it: ask about its sockets' tokens
        if (!up) busLost = true
        else if (busLost) {
          busLost = false
          void sessions.revalidate()
        }
      },
      () => void sessions.revalidate(),
    )
    const { bus, redisBus } = buses
    const hub = new TopicHub(bus, {
      softBufferBytes: config.WS_SOFT_BUFFER_BYTES,
      hardBufferBytes: config.WS_HARD_BUFFER_BYTES,
      maxTopics: config.WS_MAX_TOPICS,
      metrics: app.metrics,
    })
    const sockets = new Set<ClientSocket>()
    const { feed, lease, role } = createFeedRole(app, config, buses, sockets)
    // REST does not need the live feed or the bus: their state is reported, not made a reason
    app.readiness.report('feed', () => role.describe())
    if (redisBus) app.readiness.report('bus', () => (redisBus.up ? 'up' : 'down'))

    const { symbols, sessions, clientDeps } = createClientDeps(app, config, bus, hub)
    await registerSocketEndpoint(app, { config, sockets, clientDeps, sessions })

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
    // the feed's next try need not wait out its back-off once the REST path sees the upstream answer
    const stopRetrying = app.upstream.onBackUp(() => feed.retryNow())
    app.addHook('onClose', async () => {
      stopRetrying()
      await lease?.stop()
      await feed.stop()
      role.close()
      hub.close()
      await bus.close()
      app.websocketServer.close()
    })
  },
  { name: 'live', dependencies: ['metrics', 'health', 'redis', 'upstream', 'api', 'rate-limit'] },
)
