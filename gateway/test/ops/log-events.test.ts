import type { AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import type { GatewayConfig } from '../../src/config'
import { REDIS_URL, startTestGateway, uniquePrefix, waitFor, type TestGateway } from '../helpers'
import { connectClient } from '../live/client'
import { startFakeUpstream, type FakeUpstream } from '../live/fake-upstream'
import { freePort } from '../../../scripts/free-port.mjs'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from '../live/sandbox-upstream'

// The socket, feed and lease events an operator follows with jq or Loki: each has a stable `event`
// name, the instance, and a socketId tying one socket's lines together (docs/operations.md).

type Line = Record<string, unknown>

const INFO = 30
const WARN = 40

/** Every line of `event`, waiting until at least `count` are there. */
async function eventLines(gateway: TestGateway, event: string, count = 1, timeoutMs = 5000): Promise<Line[]> {
  const lines = () => gateway.logs.filter((line) => line.event === event)
  await waitFor(() => lines().length >= count, `${count} ${event} line(s)`, timeoutMs)
  return lines()
}

const eventCount = (gateway: TestGateway, event: string): number =>
  gateway.logs.filter((line) => line.event === event).length

async function listen(gateway: TestGateway): Promise<string> {
  await gateway.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = gateway.app.server.address() as AddressInfo
  return `ws://127.0.0.1:${port}/ws/`
}

function startGateway(
  upstream: { url: string },
  overrides: Partial<GatewayConfig> = {},
): Promise<TestGateway> {
  return startTestGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, REDIS_URL: '', ...overrides })
}

describe('socket events', () => {
  let upstream: SandboxUpstream
  let gateway: TestGateway
  let socketBase = ''

  beforeAll(async () => {
    upstream = await startSandboxUpstream(50)
    gateway = await startGateway(upstream, {
      INSTANCE_ID: 'gw-sockets',
      ALLOWED_ORIGINS: 'https://app.example',
      WS_MAX_SUBSCRIPTIONS: 3,
      WS_MAX_FRAMES_PER_SECOND: 10,
      WS_MAX_PAYLOAD_BYTES: 1024,
      WS_MAX_SOCKETS_PER_IP: 4,
    })
    socketBase = await listen(gateway)
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  const open = (clientId: string) => connectClient(socketBase + clientId, { origin: 'https://app.example' })
  /** The line of `event` for `clientId`, once it is there. */
  const lineOf = async (event: string, clientId: string): Promise<Line> => {
    await waitFor(
      () => gateway.logs.some((line) => line.event === event && line.clientId === clientId),
      `${event} for ${clientId}`,
    )
    return gateway.logs.find((line) => line.event === event && line.clientId === clientId)!
  }
  // each test starts with no socket open, whichever ran before it: the closed line comes once the socket
  // has left the per-address count, so the counts and the cap below are this test's own
  beforeEach(() =>
    waitFor(
      () => eventCount(gateway, 'socket_connected') === eventCount(gateway, 'socket_closed'),
      'every earlier socket closed',
    ),
  )

  it('connected and closed, with the code and reason, share one socketId', async () => {
    const client = await open('client-life')
    const connected = await lineOf('socket_connected', 'client-life')
    expect(connected).toEqual({
      level: INFO,
      time: expect.any(Number),
      instance: 'gw-sockets',
      event: 'socket_connected',
      socketId: expect.any(Number),
      clientId: 'client-life',
      sockets: 1,
      msg: 'socket connected',
    })
    client.ws.close(1000, 'leaving the page')
    await client.closed
    const closed = await lineOf('socket_closed', 'client-life')
    expect(closed).toEqual({
      level: INFO,
      time: expect.any(Number),
      instance: 'gw-sockets',
      event: 'socket_closed',
      socketId: connected!.socketId,
      clientId: 'client-life',
      by: 'client',
      code: 1000,
      reason: 'leaving the page',
      ms: expect.any(Number),
      sockets: 0,
      msg: 'socket closed',
    })
  })

  it.each([
    [
      'tooManySubscriptions',
      'client-subs',
      (ws: WebSocket) => {
        for (const symbol of ['btcusdt', 'ethusdt', 'bnbusdt', 'solusdt']) {
          ws.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol }))
        }
      },
      1008,
    ],
    [
      'tooManyFrames',
      'client-flood',
      (ws: WebSocket) => {
        for (let i = 0; i < 12; i++) ws.send(JSON.stringify({ operation: 'heartbeat' }))
      },
      1008,
    ],
    ['payloadTooLarge', 'client-big', (ws: WebSocket) => ws.send('x'.repeat(2048)), 1009],
  ])('a %s limit hit is logged, then the close that follows it', async (limit, clientId, abuse, code) => {
    const client = await open(clientId)
    abuse(client.ws)
    await client.closed
    const hit = await lineOf('socket_limit_hit', clientId)
    expect(hit).toEqual({
      level: WARN,
      time: expect.any(Number),
      instance: 'gw-sockets',
      event: 'socket_limit_hit',
      socketId: expect.any(Number),
      clientId,
      limit,
      msg: 'socket limit hit',
    })
    await waitFor(
      () => gateway.logs.some((line) => line.event === 'socket_closed' && line.socketId === hit!.socketId),
      'the close line',
    )
    const closed = gateway.logs.find(
      (line) => line.event === 'socket_closed' && line.socketId === hit!.socketId,
    )
    expect(closed).toMatchObject({ clientId, by: 'server', code, reason: code === 1009 ? '' : limit })
  })

  it('the per-address socket cap is a limit hit without a socket; a foreign origin is a refusal', async () => {
    const clients = await Promise.all([1, 2, 3, 4].map((i) => open(`client-cap-${i}`)))
    await expect(open('client-cap-5')).rejects.toThrow('429')
    const capped = await lineOf('socket_limit_hit', 'client-cap-5')
    expect(capped).toEqual({
      level: WARN,
      time: expect.any(Number),
      instance: 'gw-sockets',
      event: 'socket_limit_hit',
      clientId: 'client-cap-5',
      limit: 'tooManySockets',
      status: 429,
      msg: 'socket limit hit',
    })
    await Promise.all(clients.map((client) => client.close()))

    await expect(
      connectClient(`${socketBase}client-foreign`, { origin: 'https://evil.example' }),
    ).rejects.toThrow('403')
    const refused = await lineOf('socket_refused', 'client-foreign')
    expect(refused).toEqual({
      level: INFO,
      time: expect.any(Number),
      instance: 'gw-sockets',
      event: 'socket_refused',
      clientId: 'client-foreign',
      reason: 'origin',
      status: 403,
      origin: 'https://evil.example',
      msg: 'socket refused',
    })
  })
})

describe('slow-closed socket', () => {
  let upstream: FakeUpstream
  let gateway: TestGateway
  let socketBase = ''

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    gateway = await startGateway(upstream, { INSTANCE_ID: 'gw-slow' })
    socketBase = await listen(gateway)
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('logs the backlog it closed the socket with, then the close', async () => {
    upstream.users.set('token-dora', 'dora')
    const slow = await connectClient(`${socketBase}client-slow`)
    slow.send({ operation: 'auth', satoken: 'token-dora' })
    slow.send({ operation: 'subscribe', type: 'POSITION' })
    await waitFor(() => gateway.app.live.hub.subscriberCount('USER:dora') === 1, 'subscribed')
    // the client stops reading: the kernel buffers fill, then the gateway's
    ;(slow.ws as unknown as { _socket: { pause(): void } })._socket.pause()
    const big = { rows: 'x'.repeat(40_000) }
    for (let i = 0; i < 300 && !gateway.logs.some((line) => line.event === 'socket_slow_closed'); i++) {
      upstream.send({ type: 'POSITION', userId: 'dora', ts: 5000 + i, data: big })
      // paced like a live feed, so the gateway writes and checks the slow socket between events
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    const [slowClosed] = await eventLines(gateway, 'socket_slow_closed')
    expect(slowClosed).toEqual({
      level: WARN,
      time: expect.any(Number),
      instance: 'gw-slow',
      event: 'socket_slow_closed',
      socketId: expect.any(Number),
      clientId: 'client-slow',
      bufferedBytes: expect.any(Number),
      msg: 'socket closed: client reads too slowly',
    })
    expect(slowClosed!.bufferedBytes).toBeGreaterThan(gateway.config.WS_HARD_BUFFER_BYTES)
    ;(slow.ws as unknown as { _socket: { resume(): void } })._socket.resume()
    await slow.closed
    const closed = (await eventLines(gateway, 'socket_closed')).find(
      (line) => line.socketId === slowClosed!.socketId,
    )
    expect(closed).toMatchObject({
      clientId: 'client-slow',
      by: 'server',
      code: 1013,
      reason: 'slow consumer',
    })
  }, 20_000)
})

describe('closes the gateway starts', () => {
  it('a socket that stops answering pings is cut, logged as closed by the server for pingTimeout', async () => {
    const upstream = await startFakeUpstream()
    const gateway = await startGateway(upstream, { INSTANCE_ID: 'gw-ping', WS_PING_INTERVAL_MS: 100 })
    try {
      const silent = await connectClient(`${await listen(gateway)}client-silent`, { autoPong: false })
      expect((await silent.closed).code).toBe(1006)
      const [closed] = await eventLines(gateway, 'socket_closed')
      expect(closed).toMatchObject({
        clientId: 'client-silent',
        by: 'server',
        code: 1006,
        reason: 'pingTimeout',
      })
    } finally {
      await gateway.close()
      await upstream.close()
    }
  })

  it('shutdown closes every socket with 1001, logged as closed by the server', async () => {
    const upstream = await startFakeUpstream()
    const gateway = await startGateway(upstream, { INSTANCE_ID: 'gw-shutdown' })
    try {
      const client = await connectClient(`${await listen(gateway)}client-late`)
      const [connected] = await eventLines(gateway, 'socket_connected')
      await gateway.close()
      expect(await client.closed).toEqual({ code: 1001, reason: 'server shutting down' })
      expect(gateway.logs.find((line) => line.event === 'socket_closed')).toMatchObject({
        socketId: connected!.socketId,
        by: 'server',
        code: 1001,
        reason: 'server shutting down',
      })
    } finally {
      await upstream.close()
    }
  })
})

describe('feed events', () => {
  let upstream: SandboxUpstream
  let gateway: TestGateway

  beforeAll(async () => {
    upstream = await startSandboxUpstream(50)
    gateway = await startGateway(upstream, { INSTANCE_ID: 'gw-feed', FEED_SILENCE_MS: 600 })
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('connected, then lost and regained when the upstream drops it, then silent', async () => {
    const [connected] = await eventLines(gateway, 'feed_connected')
    expect(connected).toEqual({
      level: INFO,
      time: expect.any(Number),
      instance: 'gw-feed',
      event: 'feed_connected',
      attempts: 1,
      msg: 'upstream feed connected',
    })

    await upstream.dropFeed()
    const [lost] = await eventLines(gateway, 'feed_lost')
    expect(lost).toEqual({
      level: WARN,
      time: expect.any(Number),
      instance: 'gw-feed',
      event: 'feed_lost',
      code: 1006,
      reason: '',
      retryInMs: expect.any(Number),
      msg: 'upstream feed lost',
    })
    const [regained] = await eventLines(gateway, 'feed_regained')
    expect(regained).toEqual({
      level: INFO,
      time: expect.any(Number),
      instance: 'gw-feed',
      event: 'feed_regained',
      downMs: expect.any(Number),
      attempts: 1,
      msg: 'upstream feed regained',
    })
    expect(regained!.downMs).toBeGreaterThanOrEqual(lost!.retryInMs as number)

    await upstream.pauseFeed()
    try {
      const [silent] = await eventLines(gateway, 'feed_silent')
      expect(silent).toEqual({
        level: WARN,
        time: expect.any(Number),
        instance: 'gw-feed',
        event: 'feed_silent',
        silenceMs: 600,
        msg: 'upstream feed silent',
      })
      await eventLines(gateway, 'feed_lost', 2)
    } finally {
      await upstream.resumeFeed()
    }
    await eventLines(gateway, 'feed_regained', 2)
  })

  it('a feed that cannot connect logs each failed attempt', async () => {
    const port = await freePort()
    const cut = await startGateway({ url: `http://127.0.0.1:${port}` }, { INSTANCE_ID: 'gw-cut' })
    try {
      const failed = await eventLines(cut, 'feed_connect_failed', 2)
      expect(failed[0]).toEqual({
        level: WARN,
        time: expect.any(Number),
        instance: 'gw-cut',
        event: 'feed_connect_failed',
        attempts: 1,
        retryInMs: expect.any(Number),
        msg: 'upstream feed connect failed',
      })
      expect(failed[1]).toMatchObject({ attempts: 2 })
      expect(cut.logs.find((line) => line.event === 'feed_error')).toMatchObject({
        level: WARN,
        err: expect.any(String),
      })
    } finally {
      await cut.close()
    }
  })
})

describe('lease events', () => {
  let upstream: SandboxUpstream
  const prefix = uniquePrefix('lease-log')
  const gateways: TestGateway[] = []
  let redis: Redis

  beforeAll(async () => {
    upstream = await startSandboxUpstream(50)
    redis = new Redis(REDIS_URL)
  })
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()))
    await upstream?.close()
    await redis?.del(`${prefix}feed:lease`)
    redis?.disconnect()
  })

  const LEASE_MS = 3000
  const start = async (instance: string) => {
    const gateway = await startGateway(upstream, {
      INSTANCE_ID: instance,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      // long enough that a starved machine's late renewal does not let the lease run out (which is
      // logged as expired, not taken); short enough that the test does not wait long
      FEED_LEASE_MS: LEASE_MS,
    })
    gateways.push(gateway)
    return gateway
  }

  it('won by one instance; lost when another takes it, and released on shutdown to the next', async () => {
    const first = await start('gw-lease-a')
    const [won] = await eventLines(first, 'lease_won')
    expect(won).toEqual({
      level: INFO,
      time: expect.any(Number),
      instance: 'gw-lease-a',
      event: 'lease_won',
      holder: expect.stringMatching(/^gw-lease-a:/),
      leaseMs: LEASE_MS,
      msg: 'feed lease won',
    })

    // another holder in Redis: the next renewal finds it and gives way
    await redis.set(`${prefix}feed:lease`, 'someone-else', 'PX', LEASE_MS + 500)
    const [taken] = await eventLines(first, 'lease_lost')
    expect(taken).toEqual({
      level: INFO,
      time: expect.any(Number),
      instance: 'gw-lease-a',
      event: 'lease_lost',
      holder: won!.holder,
      reason: 'taken',
      msg: 'feed lease lost',
    })
    await eventLines(first, 'feed_stopped')
    await eventLines(first, 'lease_won', 2, 20_000)

    const second = await start('gw-lease-b')
    await waitFor(() => second.app.live.lease!.otherHolderSeenAt > 0, 'the second instance sees the holder')
    await first.close()
    gateways.splice(gateways.indexOf(first), 1)
    expect(first.logs.filter((line) => line.event === 'lease_lost').at(-1)).toMatchObject({
      reason: 'released',
    })
    const [secondWon] = await eventLines(second, 'lease_won', 1, 20_000)
    expect(secondWon).toMatchObject({ instance: 'gw-lease-b', holder: expect.stringMatching(/^gw-lease-b:/) })
  })
})
