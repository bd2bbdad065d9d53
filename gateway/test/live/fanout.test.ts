import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  FEED_TOKEN as STAND_IN_TOKEN,
  startFakeUpstream,
  upstreamDetail,
  type FakeUpstream,
} from './fake-upstream'
import { FEED_TOKEN, SANDBOX_SYMBOLS, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { connectClient, type Frame, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { sleep, waitFor } from './helpers'

describe('fan-out from the sandbox feed', () => {
  let upstream: SandboxUpstream
  let gateway: RunningGateway

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, WS_MAX_SOCKETS_PER_IP: 5000 })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  it('delivers every DETAIL of their symbols, in order, to 1,000 sockets', async () => {
    const wanted = (i: number): string[] =>
      SANDBOX_SYMBOLS.filter((_, s) => (i + s) % 3 === 0 || s === i % SANDBOX_SYMBOLS.length)
    // A socket on every symbol, subscribed first: what the upstream published, to compare with.
    const reference = await connectClient(gateway.socketUrl())
    for (const symbol of SANDBOX_SYMBOLS) reference.send({ operation: 'subscribe', type: 'DETAIL', symbol })
    const clients: TestClient[] = []
    for (let batch = 0; batch < 10; batch++) {
      const opened = await Promise.all(Array.from({ length: 100 }, () => connectClient(gateway.socketUrl())))
      clients.push(...opened)
    }
    clients.forEach((client, i) => {
      for (const symbol of wanted(i)) client.send({ operation: 'subscribe', type: 'DETAIL', symbol })
    })
    const expectedSubscriptions =
      clients.reduce((sum, _, i) => sum + wanted(i).length, 0) + SANDBOX_SYMBOLS.length
    await waitFor(
      () =>
        SANDBOX_SYMBOLS.reduce(
          (sum, symbol) => sum + gateway.app.live.hub.subscriberCount(`DETAIL:${symbol}`),
          0,
        ) === expectedSubscriptions,
      'every subscription registered',
    )
    // Frames published from now on reach every subscriber; ten live ticks of every symbol, counted
    // rather than timed so a busy machine only makes it slower, then silence.
    const from = Date.now() + 50
    let until = Number.POSITIVE_INFINITY
    const published = (symbol: string): number[] =>
      reference.frames
        .filter(
          (frame) =>
            frame.type === 'DETAIL' && frame.symbol === symbol && frame.ts! > from && frame.ts! <= until,
        )
        .map((frame) => frame.ts!)
    try {
      await waitFor(
        () => SANDBOX_SYMBOLS.every((symbol) => published(symbol).length >= 10),
        'ten ticks of every symbol',
        60_000,
      )
      await upstream.pauseFeed()
      until = Date.now()
      const seen = (client: TestClient, symbol: string): number[] =>
        client.frames
          .filter((frame: Frame) => frame.symbol === symbol && frame.ts! > from && frame.ts! <= until)
          .map((frame) => frame.ts!)
      await waitFor(
        () =>
          clients.every((client, i) =>
            wanted(i).every((symbol) => seen(client, symbol).length === published(symbol).length),
          ),
        'every frame at every socket',
        15_000,
      )
      for (const symbol of SANDBOX_SYMBOLS) expect(published(symbol).length).toBeGreaterThanOrEqual(10)
      clients.forEach((client, i) => {
        for (const symbol of wanted(i)) expect(seen(client, symbol)).toEqual(published(symbol))
      })
    } finally {
      await upstream.resumeFeed()
      // closed even when an assertion failed, so a thousand open sockets do not slow the next test
      await Promise.all([reference, ...clients].map((client) => client.close()))
    }
    await waitFor(() => gateway.app.live.hub.topicCount === 0, 'every topic released')
  }, 120_000)

  it('routes each user event to that user only', async () => {
    const users = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upstream.register(`fanout${Date.now().toString(36)}u${i}`)),
    )
    const clients = await Promise.all(
      users.flatMap((user) =>
        [0, 1].map(async () => {
          const client = await connectClient(gateway.socketUrl())
          client.send({ operation: 'auth', satoken: user.token })
          for (const type of ['POSITION', 'SETTLEMENT', 'USER_STATUS', 'OWNCOIN'])
            client.send({ operation: 'subscribe', type })
          return { user, client }
        }),
      ),
    )
    await waitFor(
      () => users.every((user) => gateway.app.live.hub.subscriberCount(`USER:${user.userId}`) === 2),
      'subscribed',
    )
    // A simulated deposit moves each user's balance, which the sandbox announces as OWNCOIN.
    for (let round = 0; round < 3; round++) {
      for (const user of users)
        await upstream.control('/sandbox/deposit', {
          userId: user.userId,
          coin: 'usdt',
          amount: String(10 + round),
        })
    }
    await waitFor(
      () =>
        clients.every(({ client }) => client.frames.filter((frame) => frame.type === 'OWNCOIN').length >= 3),
      'three balance events each',
    )
    for (const { user, client } of clients) {
      expect(client.frames.length).toBeGreaterThan(0)
      expect(client.frames.every((frame) => frame.userId === user.userId)).toBe(true)
    }
    await Promise.all(clients.map(({ client }) => client.close()))
  })
})

// The slow-consumer case needs user frames of 40 KB, hundreds at once: more than the sandbox ever
// sends, so a stand-in upstream produces them.
describe('fan-out with a slow consumer', () => {
  let upstream: FakeUpstream
  let gateway: RunningGateway

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN: STAND_IN_TOKEN })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

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
      // every frame reached the fast socket while the slow one still read nothing: it was not held up
      'the fast socket',
      20_000,
    )
    const positions = fast.frames.filter((frame) => frame.type === 'POSITION').map((frame) => frame.ts)
    expect(positions).toEqual(Array.from({ length: 300 }, (_, i) => 5000 + i))
    // DETAIL is a latest value: the fast socket may skip one while its own buffer is past the soft
    // limit (a starved test process reads slowly), but gets them in order and ends on the newest
    await waitFor(
      () => fast.frames.some((frame) => frame.type === 'DETAIL' && frame.ts === 5295),
      'the newest DETAIL on the fast socket',
    )
    const details = fast.frames
      .filter((frame) => frame.type === 'DETAIL' && (frame.ts ?? 0) >= 5000)
      .map((frame) => Number(frame.ts))
    expect(details).toEqual([...new Set(details)].sort((a, b) => a - b))
    const metrics = (await gateway.app.inject('/metrics')).body
    expect(metrics).toMatch(/^gateway_ws_dropped_total\{reason="slow_close"[^}]*\} [1-9]/m)
    expect(metrics).toMatch(/^gateway_ws_dropped_total\{reason="conflated"[^}]*\} [1-9]/m)
    await waitFor(() => gateway.app.live.connections === 1, 'the slow socket closed by the gateway')
    // the cut socket is counted once, as a slow_close drop, and not again among the closes
    const closes = [
      ...(await gateway.app.inject('/metrics')).body.matchAll(/^gateway_ws_closed_total\{[^}]*\} (\S+)$/gm),
    ]
    expect(closes.length).toBeGreaterThan(0)
    expect(closes.map(([, value]) => Number(value)).reduce((sum, value) => sum + value)).toBe(0)
    ;(slow.ws as unknown as { _socket: { resume(): void } })._socket.resume()
    await slow.closed
    await fast.close()
  })
})
