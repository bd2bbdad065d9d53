import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WS_ERROR } from '@tradegate/shared'
import { FEED_TOKEN, startFakeUpstream, upstreamDetail, type FakeUpstream } from './fake-upstream'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { uniquePrefix, waitFor } from './helpers'
import { RESYNC_TOPIC } from '../../src/live/bus'
import { startRedisChild, type RedisChild } from '../support/redis-server'

// Which topics an instance takes on: only symbols of the coin list, and at most WS_MAX_TOPICS of
// them. A Redis server of the test's own counts the SUBSCRIBE calls the bus makes.

const errors = (client: TestClient) => client.frames.filter((frame) => frame.type === 'error')

async function metric(gateway: RunningGateway, pattern: RegExp): Promise<number> {
  const text = (await gateway.app.inject('/metrics')).body
  const line = text.split('\n').find((row) => pattern.test(row))
  return line ? Number(line.split(' ').at(-1)) : 0
}

describe('topics an instance serves', () => {
  let upstream: FakeUpstream
  let redis: RedisChild
  let admin: Redis
  let gateway: RunningGateway
  const clients: TestClient[] = []
  const open = async (): Promise<TestClient> => {
    const client = await connectClient(gateway.socketUrl())
    clients.push(client)
    return client
  }
  const subscribeCalls = async (): Promise<number> => {
    const stats = await admin.info('commandstats')
    return Number(/cmdstat_subscribe:calls=(\d+)/.exec(stats)?.[1] ?? 0)
  }

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    redis = await startRedisChild()
    admin = new Redis(redis.url)
    gateway = await startGateway({
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      REDIS_URL: redis.url,
      REDIS_PREFIX: uniquePrefix('live-topics'),
      WS_MAX_TOPICS: 3,
    })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
    await waitFor(() => gateway.app.live.hub.topicCount === 0, 'every topic released')
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
    admin.disconnect()
    await redis.kill()
  })

  it('refuses a symbol missing from the coin list with an error frame and no Redis SUBSCRIBE', async () => {
    // the list is read once before the gateway serves (for amount precisions); sockets use that read
    expect(upstream.coinListCalls).toBe(1)
    const client = await open()
    const before = await subscribeCalls()
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'madeupusdt' })
    client.send({ operation: 'subscribe', type: 'DEPTH', symbol: 'zzzusdt' })
    client.send({ operation: 'subscribe', type: 'KLINE', symbol: 'qqqusdt', interval: '1min' })
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt1' })
    await waitFor(() => errors(client).length === 4, 'four refusals')
    expect(errors(client)).toEqual(
      Array.from({ length: 4 }, () => ({ type: 'error', code: WS_ERROR.badFrame, msg: 'unknownSymbol' })),
    )
    expect(gateway.app.live.hub.topicCount).toBe(0)
    expect(await metric(gateway, /^gateway_rejected_requests_total\{reason="unknown_symbol"/)).toBe(4)

    // a listed symbol, and DETAIL for every symbol, are served: one SUBSCRIBE each
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    client.send({ operation: 'subscribe', type: 'DETAIL' })
    await waitFor(() => gateway.app.live.hub.topicCount === 2, 'two topics')
    await waitFor(async () => (await subscribeCalls()) === before + 2, 'two SUBSCRIBE calls')
    // the channels sockets asked for; the resync topic and the notice channel are always there
    const channels = (await admin.pubsub('CHANNELS', '*bus:*')) as string[]
    const topics = channels
      .map((channel) => channel.split('bus:')[1])
      .filter((topic) => topic !== RESYNC_TOPIC)
    expect(topics.sort()).toEqual(['DETAIL:*', 'TRADE:btcusdt'])
    expect(errors(client)).toHaveLength(4)
    expect(upstream.coinListCalls).toBe(1)
  })

  it('refuses a topic past WS_MAX_TOPICS with an error frame, keeps the socket, and counts it', async () => {
    const first = await open()
    for (const symbol of ['btcusdt', 'ethusdt', 'solusdt'])
      first.send({ operation: 'subscribe', type: 'DETAIL', symbol })
    await waitFor(() => gateway.app.live.hub.topicCount === 3, 'three topics')
    const before = await subscribeCalls()
    first.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    expect(await first.next((frame) => frame.type === 'error')).toEqual({
      type: 'error',
      code: WS_ERROR.tooMany,
      msg: 'tooManyTopics',
    })
    expect(await metric(gateway, /^gateway_ws_topics\{/)).toBe(3)
    expect(await metric(gateway, /^gateway_rejected_requests_total\{reason="too_many_topics"/)).toBe(1)

    // the socket stays open, and a topic the instance already serves is still open to anyone
    const second = await open()
    upstream.send(upstreamDetail('ethusdt', 7, Date.now()))
    second.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' })
    await second.next((frame) => frame.type === 'DETAIL' && frame.symbol === 'ethusdt')
    first.send({ type: 'HEARTBEAT' })
    await first.next((frame) => frame.type === 'HEARTBEAT')
    expect(await subscribeCalls()).toBe(before)

    // a topic left frees its place
    first.send({ operation: 'unsubscribe', type: 'DETAIL', symbol: 'solusdt' })
    first.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    await waitFor(() => gateway.app.live.hub.subscriberCount('TRADE:btcusdt') === 1, 'TRADE accepted')
    expect(errors(first)).toHaveLength(1)
  })

  it('answers a heartbeat only once the topics asked for before it are served, however slow Redis is to confirm them', async () => {
    const client = await open()
    const topic = 'DETAIL:ethusdt'
    // Redis holds every command for a while: a new topic's SUBSCRIBE and snapshot read wait with them
    await admin.call('CLIENT', 'PAUSE', '1500', 'ALL')
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' })
    client.send({ operation: 'heartbeat' })
    await client.next((frame) => frame.type === 'HEARTBEAT')
    // the answer says the stream has taken effect: the socket is among its subscribers by then, so a
    // tick published from now on reaches it (what the client fetches after the answer leaves no gap)
    expect(gateway.app.live.hub.subscriberCount(topic)).toBe(1)
    upstream.send(upstreamDetail('ethusdt', 4321, Date.now()))
    const closeOf = (frame: { data?: unknown }) => (frame.data as { close?: string } | undefined)?.close
    await client.next((frame) => frame.type === 'DETAIL' && closeOf(frame) === '4321')
    // one step to the side: a heartbeat after a subscription already served, and one with none before it
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt', rate: 1000 })
    client.send({ operation: 'heartbeat' })
    client.send({ operation: 'heartbeat' })
    await waitFor(
      () => client.frames.filter((frame) => frame.type === 'HEARTBEAT').length === 3,
      'both answered',
    )
    expect(errors(client)).toEqual([])
  })
})

describe('while the coin list cannot be read', () => {
  it('lets market subscriptions through unchecked rather than refuse every market', async () => {
    const upstream = await startFakeUpstream()
    upstream.symbols.clear()
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN })
    try {
      const client = await connectClient(gateway.socketUrl())
      upstream.send(upstreamDetail('dogeusdt', 3, Date.now()))
      client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'dogeusdt' })
      await waitFor(() => gateway.app.live.hub.subscriberCount('DETAIL:dogeusdt') === 1, 'subscribed')
      expect(upstream.coinListCalls).toBeGreaterThan(0)
      expect(errors(client)).toEqual([])
      await client.close()
    } finally {
      await gateway.close()
      await upstream.close()
    }
  })
})
