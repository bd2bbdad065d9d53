import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FEED_TOKEN, startFakeUpstream, upstreamDetail, type FakeUpstream } from './fake-upstream'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { sleep, waitFor } from './helpers'

const SYMBOLS = ['btcusdt', 'ethusdt', 'solusdt', 'xrpusdt', 'dogeusdt', 'adausdt', 'trxusdt', 'linkusdt']

describe('fan-out', () => {
  let upstream: FakeUpstream
  let gateway: RunningGateway

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, WS_MAX_SOCKETS_PER_IP: 5000 })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  it('delivers every DETAIL of their symbols, in order, to 1,000 sockets', async () => {
    const wanted = (i: number): string[] =>
      SYMBOLS.filter((_, s) => (i + s) % 3 === 0 || s === i % SYMBOLS.length)
    const clients: TestClient[] = []
    for (let batch = 0; batch < 10; batch++) {
      const opened = await Promise.all(Array.from({ length: 100 }, () => connectClient(gateway.socketUrl())))
      clients.push(...opened)
    }
    clients.forEach((client, i) => {
      for (const symbol of wanted(i)) client.send({ operation: 'subscribe', type: 'DETAIL', symbol })
    })
    const expectedSubscriptions = clients.reduce((sum, _, i) => sum + wanted(i).length, 0)
    await waitFor(
      () =>
        SYMBOLS.reduce((sum, symbol) => sum + gateway.app.live.hub.subscriberCount(`DETAIL:${symbol}`), 0) ===
        expectedSubscriptions,
      'every subscription registered',
    )
    const ticks = 20
    for (let tick = 0; tick < ticks; tick++) {
      for (const symbol of SYMBOLS) upstream.send(upstreamDetail(symbol, 100 + tick, 1 + tick))
      await sleep(5)
    }
    await waitFor(
      () => clients.every((client, i) => client.frames.length === wanted(i).length * ticks),
      'every frame at every socket',
      15_000,
    )
    clients.forEach((client, i) => {
      for (const symbol of wanted(i)) {
        const seen = client.frames.filter((frame) => frame.symbol === symbol).map((frame) => frame.ts)
        expect(seen).toEqual(Array.from({ length: ticks }, (_, tick) => 1 + tick))
      }
    })
    await Promise.all(clients.map((client) => client.close()))
    await waitFor(() => gateway.app.live.hub.topicCount === 0, 'every topic released')
  }, 30_000)

  it('keeps delivering to others while one socket stops reading: it is conflated, then closed', async () => {
    upstream.users.set('token-carol', 'carol')
    const open = async (): Promise<TestClient> => {
      const client = await connectClient(gateway.socketUrl())
      client.send({ operation: 'auth', satoken: 'token-carol' })
      client.send({ operation: 'subscribe', type: 'POSITION' })
      client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
      return client
    }
    const fast = await open()
    const slow = await open()
    await waitFor(() => gateway.app.live.hub.subscriberCount('USER:carol') === 2, 'both subscribed')
    // the slow client's process stops reading its socket; the kernel buffers fill, then the gateway's
    ;(slow.ws as unknown as { _socket: { pause(): void } })._socket.pause()
    const big = { rows: 'x'.repeat(40_000) }
    const sentAt = Date.now()
    for (let i = 0; i < 300; i++) {
      upstream.send({ type: 'POSITION', userId: 'carol', ts: 5000 + i, data: big })
      if (i % 5 === 0) {
        upstream.send(upstreamDetail('btcusdt', 100 + i, 5000 + i))
        // paced like a live feed, so the slow socket's backlog grows turn by turn
        await sleep(2)
      }
    }
    await waitFor(
      () => fast.frames.filter((frame) => frame.type === 'POSITION').length === 300,
      'the fast socket',
      10_000,
    )
    const tookMs = Date.now() - sentAt
    expect(tookMs).toBeLessThan(5000)
    const positions = fast.frames.filter((frame) => frame.type === 'POSITION').map((frame) => frame.ts)
    expect(positions).toEqual(Array.from({ length: 300 }, (_, i) => 5000 + i))
    expect(fast.frames.filter((frame) => frame.type === 'DETAIL' && (frame.ts ?? 0) >= 5000)).toHaveLength(60)
    const metrics = (await gateway.app.inject('/metrics')).body
    expect(metrics).toMatch(/^gateway_ws_dropped_total\{reason="slow_close"[^}]*\} [1-9]/m)
    expect(metrics).toMatch(/^gateway_ws_dropped_total\{reason="conflated"[^}]*\} [1-9]/m)
    await waitFor(() => gateway.app.live.connections === 1, 'the slow socket closed by the gateway')
    ;(slow.ws as unknown as { _socket: { resume(): void } })._socket.resume()
    await slow.closed
    await fast.close()
  }, 20_000)

  it('routes each user event to that user only', async () => {
    const users = Array.from({ length: 20 }, (_, i) => `user${i}`)
    for (const user of users) upstream.users.set(`token-${user}`, user)
    const clients = await Promise.all(
      users.flatMap((user) =>
        [0, 1].map(async () => {
          const client = await connectClient(gateway.socketUrl())
          client.send({ operation: 'auth', satoken: `token-${user}` })
          for (const type of ['POSITION', 'SETTLEMENT', 'USER_STATUS', 'OWNCOIN'])
            client.send({ operation: 'subscribe', type })
          return { user, client }
        }),
      ),
    )
    await waitFor(
      () => users.every((user) => gateway.app.live.hub.subscriberCount(`USER:${user}`) === 2),
      'subscribed',
    )
    const types = ['POSITION', 'SETTLEMENT', 'USER_STATUS', 'OWNCOIN']
    let ts = 9000
    for (let round = 0; round < 5; round++) {
      for (const user of users)
        upstream.send({ type: types[round % 4], userId: user, ts: ts++, data: { round } })
    }
    await waitFor(() => clients.every(({ client }) => client.frames.length === 5), 'five events each')
    for (const { user, client } of clients) {
      expect(client.frames.every((frame) => frame.userId === user)).toBe(true)
    }
    await Promise.all(clients.map(({ client }) => client.close()))
  })
})
