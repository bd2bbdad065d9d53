import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { WS_CLOSE, WS_ERROR } from '@tradegate/shared'
import { FEED_TOKEN as STAND_IN_TOKEN, startFakeUpstream, upstreamDetail } from './fake-upstream'
import { FEED_TOKEN, SANDBOX_SYMBOLS, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { connectClient, type Frame, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { waitFor } from './helpers'

const isError = (code: number) => (frame: Frame) => frame.type === 'error' && frame.code === code
const DECIMAL = /^-?\d+(\.\d+)?$/

describe('client socket protocol (in-memory bus, the sandbox feed)', () => {
  let upstream: SandboxUpstream
  let alice: { token: string; userId: string }
  let bob: { token: string; userId: string }
  let gateway: RunningGateway
  const clients: TestClient[] = []
  const open = async (url = gateway.socketUrl(), options = {}): Promise<TestClient> => {
    const client = await connectClient(url, options)
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    const stamp = Date.now().toString(36)
    ;[alice, bob] = await Promise.all([upstream.register(`alice${stamp}`), upstream.register(`bob${stamp}`)])
    gateway = await startGateway({
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      WS_MAX_SUBSCRIPTIONS: 5,
      WS_MAX_FRAMES_PER_SECOND: 20,
      WS_MAX_SOCKETS_PER_IP: 30,
      WS_MAX_PAYLOAD_BYTES: 4096,
    })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  it('answers both heartbeat forms with a HEARTBEAT frame carrying the server time', async () => {
    const client = await open()
    const before = Date.now()
    client.send({ type: 'HEARTBEAT' })
    client.send({ operation: 'heartbeat' })
    await waitFor(() => client.frames.length === 2, 'two heartbeats')
    for (const frame of client.frames) {
      expect(frame.type).toBe('HEARTBEAT')
      expect(frame.ts).toBeGreaterThanOrEqual(before)
    }
  })

  it('answers a bad frame with the parser error and keeps the socket open', async () => {
    const client = await open()
    const cases: Array<[string, string]> = [
      ['not json', 'invalidJson'],
      ['[1,2]', 'frameMustBeObject'],
      ['{"operation":"dance"}', 'unknownOperation'],
      ['{"operation":"subscribe","type":"NEWS"}', 'unknownType'],
      ['{"operation":"subscribe","type":"TRADE"}', 'symbolRequired'],
      ['{"operation":"subscribe","type":"DETAIL","symbol":"BTC/USDT"}', 'invalidSymbol'],
      ['{"operation":"subscribe","type":"KLINE","symbol":"btcusdt","interval":"2min"}', 'invalidInterval'],
      ['{"operation":"auth","satoken":""}', 'invalidToken'],
    ]
    for (const [text] of cases) client.send(text)
    await waitFor(() => client.frames.length === cases.length, 'an answer per bad frame')
    expect(client.frames).toEqual(cases.map(([, msg]) => ({ type: 'error', code: WS_ERROR.badFrame, msg })))
    client.ws.send(Buffer.from([1, 2, 3]), { binary: true })
    expect(await client.next((frame) => frame.msg === 'textFramesOnly')).toMatchObject({ code: 4400 })
    client.send({ type: 'HEARTBEAT' })
    await client.next((frame) => frame.type === 'HEARTBEAT')
    expect(client.ws.readyState).toBe(WebSocket.OPEN)
  })

  it('sends the snapshot at once on subscribe, then every update, until unsubscribe', async () => {
    await waitFor(() => gateway.app.live.bus.snapshot('DETAIL:btcusdt').length === 1, 'snapshot stored')
    const client = await open()
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    const snapshot = await client.next((frame) => frame.type === 'DETAIL')
    expect(snapshot).toMatchObject({ type: 'DETAIL', symbol: 'btcusdt', ts: expect.any(Number) })
    expect(snapshot.data).toEqual({
      open: expect.stringMatching(DECIMAL),
      close: expect.stringMatching(DECIMAL),
      high: expect.stringMatching(DECIMAL),
      low: expect.stringMatching(DECIMAL),
      vol: expect.stringMatching(DECIMAL),
      amount: expect.stringMatching(DECIMAL),
      change: expect.stringMatching(DECIMAL),
      // btcusdt has a futures contract: its ticker carries the contract's reference prices and funding
      markPrice: expect.stringMatching(DECIMAL),
      indexPrice: expect.stringMatching(DECIMAL),
      fundingRate: expect.stringMatching(/^-?\d+(\.\d+)?$/),
      nextFundingTime: expect.any(Number),
    })
    await client.next((frame) => frame.type === 'DETAIL' && frame.ts! > snapshot.ts!)
    // a second subscriber counts the updates the first would have had
    const witness = await open()
    witness.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    await witness.next((frame) => frame.type === 'DETAIL')
    client.send({ operation: 'unsubscribe', type: 'DETAIL', symbol: 'btcusdt' })
    client.send({ type: 'HEARTBEAT' })
    await client.next((frame) => frame.type === 'HEARTBEAT')
    const afterUnsubscribe = client.frames.length
    const witnessed = witness.frames.length
    await waitFor(() => witness.frames.length >= witnessed + 3, 'three updates after the unsubscribe')
    expect(client.frames.slice(afterUnsubscribe)).toEqual([])
    const details = client.frames.filter((frame) => frame.type === 'DETAIL')
    expect(details.every((frame) => frame.symbol === 'btcusdt')).toBe(true)
  })

  it('delivers DETAIL for every symbol to a subscription without a symbol, and KLINE and TRADE by topic', async () => {
    const client = await open()
    client.send({ operation: 'subscribe', type: 'DETAIL' })
    client.send({ operation: 'subscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1min' })
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    await waitFor(
      () =>
        new Set(client.frames.filter((frame) => frame.type === 'DETAIL').map((frame) => frame.symbol)).size >=
          5 &&
        client.frames.some((frame) => frame.type === 'KLINE') &&
        client.frames.some((frame) => frame.type === 'TRADE'),
      'details of many symbols, a candle and a trade',
    )
    const others = client.frames.filter((frame) => frame.type === 'KLINE' || frame.type === 'TRADE')
    expect(others.every((frame) => frame.symbol === 'btcusdt')).toBe(true)
    expect(
      others
        .filter((frame) => frame.type === 'KLINE')
        .every((frame) => (frame as { interval?: string }).interval === '1min'),
    ).toBe(true)
    expect(others.find((frame) => frame.type === 'TRADE')?.data).toEqual({
      price: expect.stringMatching(DECIMAL),
      qty: expect.stringMatching(DECIMAL),
      side: expect.stringMatching(/^(buy|sell)$/),
      time: expect.any(Number),
    })
  })

  it('keeps the order of frames per topic', async () => {
    const client = await open()
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' })
    await waitFor(() => client.frames.length >= 40, 'a stream of trades and details', 10_000)
    for (const type of ['TRADE', 'DETAIL']) {
      const stamps = client.frames.filter((frame) => frame.type === type).map((frame) => frame.ts!)
      expect(stamps.length).toBeGreaterThan(1)
      expect(stamps).toEqual([...stamps].sort((x, y) => x - y))
    }
  })

  it('routes per-user events only after auth, and only the types asked for', async () => {
    const client = await open()
    client.send({ operation: 'subscribe', type: 'OWNCOIN' })
    expect(await client.next(isError(WS_ERROR.notAuthorised))).toMatchObject({ msg: 'notAuthorised' })
    client.send({ operation: 'auth', satoken: 'wrong-token' })
    await waitFor(() => client.frames.filter(isError(WS_ERROR.notAuthorised)).length === 2, 'auth refused')
    // sent back to back: the subscribe waits for the auth to resolve
    client.send({ operation: 'auth', satoken: alice.token })
    client.send({ operation: 'subscribe', type: 'OWNCOIN' })
    client.send({ type: 'HEARTBEAT' })
    await client.next((frame) => frame.type === 'HEARTBEAT')
    await waitFor(() => gateway.app.live.hub.subscriberCount(`USER:${alice.userId}`) === 1, 'subscribed')
    // bob's balance and status move, then alice's balance
    await upstream.control('/sandbox/deposit', { userId: bob.userId, coin: 'usdt', amount: '5' })
    await upstream.control('/sandbox/expire', { userId: bob.userId })
    await upstream.control('/sandbox/deposit', { userId: alice.userId, coin: 'usdt', amount: '7' })
    const own = await client.next((frame) => frame.type === 'OWNCOIN')
    expect(own).toMatchObject({ type: 'OWNCOIN', userId: alice.userId, ts: expect.any(Number) })
    // bob's events came first through the same feed, so any of them sent here is in before this reply
    client.send({ type: 'HEARTBEAT' })
    await client.next(
      (frame) => frame.type === 'HEARTBEAT' && client.frames.indexOf(frame) > client.frames.indexOf(own),
    )
    const userFrames = client.frames.filter((frame) => frame.userId)
    expect(userFrames.every((frame) => frame.type === 'OWNCOIN' && frame.userId === alice.userId)).toBe(true)
  })

  it('closes with 1009 on a frame over the payload limit', async () => {
    const client = await open()
    client.send(JSON.stringify({ operation: 'auth', satoken: 'x'.repeat(5000) }))
    expect((await client.closed).code).toBe(WS_CLOSE.tooLarge)
  })

  it('sends an error then closes with 1008 past the subscription limit', async () => {
    const client = await open()
    for (const symbol of SANDBOX_SYMBOLS.slice(0, 6)) {
      client.send({ operation: 'subscribe', type: 'TRADE', symbol })
    }
    const { code } = await client.closed
    expect(code).toBe(WS_CLOSE.policyViolation)
    expect(client.frames.at(-1)).toEqual({
      type: 'error',
      code: WS_ERROR.tooMany,
      msg: 'tooManySubscriptions',
    })
    await waitFor(
      () => gateway.app.live.hub.subscriberCount(`TRADE:${SANDBOX_SYMBOLS[0]}`) === 0,
      'subscriptions released',
    )
  })

  it('sends an error then closes with 1008 past the frame rate limit', async () => {
    const client = await open()
    for (let i = 0; i < 25; i++) client.send({ type: 'HEARTBEAT' })
    expect((await client.closed).code).toBe(WS_CLOSE.policyViolation)
    expect(client.frames.filter((frame) => frame.type === 'HEARTBEAT')).toHaveLength(20)
    expect(client.frames.at(-1)).toMatchObject({ type: 'error', msg: 'tooManyFrames' })
  })

  it('refuses sockets past the per-address limit, a foreign origin, and other paths', async () => {
    const held = await Promise.all(Array.from({ length: 30 }, () => open()))
    await expect(connectClient(gateway.socketUrl())).rejects.toThrow('429')
    await held[0]!.close()
    await waitFor(() => gateway.app.live.connections === 29, 'one socket closed')
    await open()
    await Promise.all(clients.splice(0).map((client) => client.close()))

    await expect(connectClient(gateway.socketUrl(), { origin: 'https://evil.example' })).rejects.toThrow(
      '403',
    )
    await open(gateway.socketUrl(), { origin: `http://127.0.0.1:${gateway.port}` })
    await expect(connectClient(`ws://127.0.0.1:${gateway.port}/other`)).rejects.toThrow('404')
    const text = (await gateway.app.inject('/metrics')).body
    for (const reason of ['too_many_sockets', 'origin', 'path'])
      expect(text).toMatch(new RegExp(`^gateway_ws_refused_total\\{reason="${reason}"[^}]*\\} 1$`, 'm'))
    expect(text).toMatch(/^gateway_ws_refused_total\{reason="draining"[^}]*\} 0$/m)
  })

  it('reports connections, subscriptions and messages sent in /metrics', async () => {
    const client = await open()
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    await client.next((frame) => frame.type === 'TRADE', 5000)
    const text = (await gateway.app.inject('/metrics')).body
    expect(text).toMatch(/^gateway_ws_connections\{[^}]*\} 1$/m)
    expect(text).toMatch(/^gateway_ws_subscriptions\{[^}]*\} 1$/m)
    expect(text).toMatch(/^gateway_ws_messages_sent_total\{[^}]*\} [1-9]\d*$/m)
    expect(text).toMatch(/^gateway_feed_connected\{[^}]*\} 1$/m)
    expect(text).toMatch(/^gateway_feed_lag_seconds\{[^}]*\} \d/m)
  })

  it('reports when the feed last sent a frame as of each scrape, not as of the first', async () => {
    const lastFrameAt = async () => {
      const text = (await gateway.app.inject('/metrics')).body
      const match = /^gateway_feed_last_frame_timestamp_seconds\{[^}]*\} (\S+)$/m.exec(text)
      expect(match).not.toBeNull()
      return Number(match![1])
    }
    const client = await open()
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    // a print the upstream sent after a moment reached the gateway after it too (the sandbox shares its clock)
    const printAfter = (seconds: number) =>
      client.next((frame) => frame.type === 'TRADE' && (frame.ts ?? 0) >= seconds * 1000)
    const before = Date.now() / 1000
    await printAfter(before)
    const first = await lastFrameAt()
    expect(first).toBeGreaterThanOrEqual(before)
    expect(first).toBeLessThanOrEqual(Date.now() / 1000)
    // frames keep coming: a later scrape reads a later frame
    const seen = Date.now() / 1000
    await printAfter(seen)
    expect(await lastFrameAt()).toBeGreaterThanOrEqual(seen)
  })
})

// The sandbox never sends numbers or data.tick nesting; a stand-in upstream sends that raw shape
// to show the gateway normalises it once, before fan-out.
describe('normalising raw upstream shapes', () => {
  it('turns numbers nested under data.tick into the decimal strings clients receive', async () => {
    const upstream = await startFakeUpstream()
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN: STAND_IN_TOKEN })
    try {
      await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
      const client = await connectClient(gateway.socketUrl())
      client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
      await waitFor(() => gateway.app.live.hub.subscriberCount('DETAIL:btcusdt') === 1, 'subscribed')
      upstream.send(upstreamDetail('btcusdt', 101, 1000))
      expect(await client.next((frame) => frame.type === 'DETAIL')).toEqual({
        type: 'DETAIL',
        symbol: 'btcusdt',
        ts: 1000,
        data: { open: '100', close: '101', high: '200', low: '50', vol: '10', amount: '1000', change: '1.5' },
      })
      await client.close()
    } finally {
      await gateway.close()
      await upstream.close()
    }
  })
})

describe('client socket lifecycle (the sandbox feed)', () => {
  let upstream: SandboxUpstream
  beforeAll(async () => {
    upstream = await startSandboxUpstream()
  })
  afterAll(async () => {
    await upstream.close()
  })

  it('terminates a socket that stops answering pings, and closes the rest with 1001 on shutdown', async () => {
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, WS_PING_INTERVAL_MS: 100 })
    try {
      const silent = await connectClient(gateway.socketUrl(), { autoPong: false })
      const healthy = await connectClient(gateway.socketUrl())
      let pings = 0
      healthy.ws.on('ping', () => pings++)
      const { code } = await silent.closed
      expect(code).toBe(1006)
      // pinged three more times, it answered each: a silent socket is cut after two
      const pingsBefore = pings
      await waitFor(() => pings >= pingsBefore + 3, 'three more pings')
      expect(healthy.ws.readyState).toBe(WebSocket.OPEN)
      // the ping timeout is a close reason of its own, not lumped with the client's closes
      const closes = (await gateway.app.inject('/metrics')).body
      expect(closes).toMatch(/^gateway_ws_closed_total\{reason="ping_timeout"[^}]*\} 1$/m)
      expect(closes).toMatch(/^gateway_ws_closed_total\{reason="client"[^}]*\} 0$/m)
      const closing = gateway.close()
      expect((await healthy.closed).code).toBe(WS_CLOSE.goingAway)
      await closing
    } finally {
      await gateway.close()
    }
  })

  it('stays ready while the feed is away, says so, and tells subscribed sockets to resync once it is back', async () => {
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN })
    const watcher = await connectClient(gateway.socketUrl())
    const idle = await connectClient(gateway.socketUrl())
    try {
      await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
      watcher.send({ operation: 'subscribe', type: 'DETAIL', symbol: SANDBOX_SYMBOLS[0] })
      await watcher.next((frame) => frame.type === 'DETAIL')
      expect((await gateway.app.inject('/readyz')).json()).toEqual({ status: 'ready', feed: 'reading' })
      const connects = upstream.feedConnects
      await upstream.dropFeed()
      await waitFor(() => !gateway.app.live.feed.connected, 'feed lost')
      // REST still works, so the instance stays ready; the body says the feed is down
      const away = await gateway.app.inject('/readyz')
      expect(away.statusCode).toBe(200)
      expect(away.json()).toEqual({ status: 'ready', feed: 'reading, not connected' })
      await waitFor(
        () => upstream.feedConnects === connects + 1 && gateway.app.live.feed.connected,
        'reconnected',
      )
      const resync = await watcher.next((frame) => frame.type === 'resync')
      expect(resync).toMatchObject({ type: 'resync', reason: 'feed' })
      // a socket with no subscription has nothing to resync
      expect(idle.frames.filter((frame) => frame.type === 'resync')).toEqual([])
      const metrics = (await gateway.app.inject('/metrics')).body
      expect(metrics).toMatch(/gateway_ws_resyncs_total\{reason="feed"[^}]*\} 1\n/)
    } finally {
      await Promise.all([watcher.close(), idle.close()])
      await gateway.close()
    }
  })

  it('reconnects a feed that goes silent', async () => {
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, FEED_SILENCE_MS: 300 })
    try {
      await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
      const connects = upstream.feedConnects
      // paused, the sandbox sends nothing at all, heartbeats included
      await upstream.pauseFeed()
      await waitFor(() => upstream.feedConnects > connects, 'reconnect after silence', 3000)
    } finally {
      await upstream.resumeFeed()
      await gateway.close()
    }
  })

  it('tells its sockets to resync only once data flows again, not when a paused feed merely reconnects', async () => {
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, FEED_SILENCE_MS: 300 })
    const watcher = await connectClient(gateway.socketUrl())
    let paused = false
    try {
      await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
      watcher.send({ operation: 'subscribe', type: 'DETAIL', symbol: SANDBOX_SYMBOLS[0] })
      await watcher.next((frame) => frame.type === 'DETAIL')
      const connects = upstream.feedConnects
      await upstream.pauseFeed()
      paused = true
      // the paused sandbox accepts each new socket and sends nothing: three reconnects, no recovery
      await waitFor(() => upstream.feedConnects >= connects + 3, 'reconnects while paused', 10_000)
      expect(watcher.frames.filter((frame) => frame.type === 'resync')).toEqual([])
      await upstream.resumeFeed()
      paused = false
      const resync = await watcher.next((frame) => frame.type === 'resync')
      expect(resync).toMatchObject({ type: 'resync', reason: 'feed' })
      expect(watcher.frames.filter((frame) => frame.type === 'resync')).toHaveLength(1)
    } finally {
      if (paused) await upstream.resumeFeed()
      await watcher.close()
      await gateway.close()
    }
  })

  it('gets no market data or user events with a wrong feed token: the sandbox treats it as a plain client', async () => {
    const connects = upstream.feedConnects
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN: 'a-wrong-token' })
    try {
      const client = await connectClient(gateway.socketUrl())
      client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
      client.send({ type: 'HEARTBEAT' })
      await client.next((frame) => frame.type === 'HEARTBEAT')
      // a gateway with the right token counts the sandbox's ticks the wrong one could have had
      const witnessGateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN })
      try {
        const witness = await connectClient(witnessGateway.socketUrl())
        witness.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
        await waitFor(() => witness.frames.filter((frame) => frame.type === 'DETAIL').length >= 4, 'ticks')
        await witness.close()
      } finally {
        await witnessGateway.close()
      }
      expect(upstream.feedConnects).toBe(connects + 1)
      expect(client.frames.filter((frame) => frame.type === 'DETAIL')).toEqual([])
      expect(gateway.app.live.bus.snapshot('DETAIL:btcusdt')).toHaveLength(0)
      await client.close()
    } finally {
      await gateway.close()
    }
  })
})
