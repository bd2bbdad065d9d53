import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { WS_CLOSE, WS_ERROR } from '@tradegate/shared'
import { FEED_TOKEN, startFakeUpstream, upstreamDetail, type FakeUpstream } from './fake-upstream'
import { connectClient, type Frame, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { sleep, waitFor } from './helpers'

const isError = (code: number) => (frame: Frame) => frame.type === 'error' && frame.code === code

describe('client socket protocol (in-memory bus)', () => {
  let upstream: FakeUpstream
  let gateway: RunningGateway
  const clients: TestClient[] = []
  const open = async (url = gateway.socketUrl(), options = {}): Promise<TestClient> => {
    const client = await connectClient(url, options)
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    upstream.users.set('token-alice', 'alice')
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

  it('sends the snapshot at once on subscribe, then every update, normalised, until unsubscribe', async () => {
    upstream.send(upstreamDetail('btcusdt', 101, 1000))
    await waitFor(() => gateway.app.live.bus.snapshot('DETAIL:btcusdt').length === 1, 'snapshot stored')
    const client = await open()
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    const snapshot = await client.next((frame) => frame.type === 'DETAIL')
    expect(snapshot).toEqual({
      type: 'DETAIL',
      symbol: 'btcusdt',
      ts: 1000,
      data: { open: '100', close: '101', high: '200', low: '50', vol: '10', amount: '1000', change: '1.5' },
    })
    upstream.send(upstreamDetail('btcusdt', 102, 1001))
    upstream.send(upstreamDetail('ethusdt', 5, 1002))
    await client.next((frame) => frame.ts === 1001)
    client.send({ operation: 'unsubscribe', type: 'DETAIL', symbol: 'btcusdt' })
    client.send({ type: 'HEARTBEAT' })
    await client.next((frame) => frame.type === 'HEARTBEAT')
    upstream.send(upstreamDetail('btcusdt', 103, 1003))
    await sleep(100)
    expect(client.frames.filter((frame) => frame.type === 'DETAIL').map((frame) => frame.ts)).toEqual([
      1000, 1001,
    ])
  })

  it('delivers DETAIL for every symbol to a subscription without a symbol, and KLINE and TRADE by topic', async () => {
    upstream.send(upstreamDetail('solusdt', 7, 2000))
    await waitFor(() => gateway.app.live.bus.snapshot('DETAIL:*').length >= 2, 'wildcard snapshot')
    const client = await open()
    client.send({ operation: 'subscribe', type: 'DETAIL' })
    client.send({ operation: 'subscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1min' })
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    await client.next((frame) => frame.symbol === 'solusdt')
    await sleep(50)
    upstream.send(upstreamDetail('xrpusdt', 0.5, 2001))
    upstream.send({
      type: 'KLINE',
      symbol: 'btcusdt',
      interval: '1min',
      ts: 2002,
      data: { time: 60_000, open: 1, high: 2, low: 0.5, close: 1.5, vol: 3 },
    })
    upstream.send({
      type: 'KLINE',
      symbol: 'btcusdt',
      interval: '5min',
      ts: 2003,
      data: { time: 0, open: 1, high: 2, low: 0.5, close: 1.5, vol: 3 },
    })
    upstream.send({
      type: 'TRADE',
      symbol: 'btcusdt',
      ts: 2004,
      data: { price: '65000.5', qty: 0.1, side: 'buy', time: 2004 },
    })
    upstream.send({
      type: 'TRADE',
      symbol: 'ethusdt',
      ts: 2005,
      data: { price: '3000', qty: 1, side: 'sell', time: 2005 },
    })
    await client.next((frame) => frame.ts === 2004)
    await sleep(50)
    const live = client.frames
      .filter((frame) => (frame.ts ?? 0) > 2000)
      .map((frame) => `${frame.type}:${frame.ts}`)
    expect(live).toEqual(['DETAIL:2001', 'KLINE:2002', 'TRADE:2004'])
    expect(client.frames.find((frame) => frame.ts === 2004)?.data).toEqual({
      price: '65000.5',
      qty: '0.1',
      side: 'buy',
      time: 2004,
    })
  })

  it('keeps the order of frames per topic', async () => {
    const client = await open()
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'dogeusdt' })
    await sleep(50)
    for (let i = 0; i < 500; i++) {
      upstream.send({
        type: 'TRADE',
        symbol: 'dogeusdt',
        ts: 10_000 + i,
        data: { price: '0.1', qty: '5', side: 'buy', time: i },
      })
    }
    await waitFor(() => client.frames.length === 500, 'every trade')
    expect(client.frames.map((frame) => frame.ts)).toEqual(Array.from({ length: 500 }, (_, i) => 10_000 + i))
  })

  it('routes per-user events only after auth, and only the types asked for', async () => {
    const client = await open()
    client.send({ operation: 'subscribe', type: 'POSITION' })
    expect(await client.next(isError(WS_ERROR.notAuthorised))).toMatchObject({ msg: 'notAuthorised' })
    client.send({ operation: 'auth', satoken: 'wrong-token' })
    await waitFor(() => client.frames.filter(isError(WS_ERROR.notAuthorised)).length === 2, 'auth refused')
    // sent back to back: the subscribe waits for the auth to resolve
    client.send({ operation: 'auth', satoken: 'token-alice' })
    client.send({ operation: 'subscribe', type: 'POSITION' })
    client.send({ type: 'HEARTBEAT' })
    await client.next((frame) => frame.type === 'HEARTBEAT')
    upstream.send({ type: 'SETTLEMENT', userId: 'alice', ts: 3000, data: { id: 1 } })
    upstream.send({ type: 'POSITION', userId: 'bob', ts: 3001, data: { id: 2 } })
    upstream.send({ type: 'POSITION', userId: 'alice', ts: 3002, data: { id: 3 } })
    const position = await client.next((frame) => frame.type === 'POSITION')
    expect(position).toEqual({ type: 'POSITION', userId: 'alice', ts: 3002, data: { id: 3 } })
    await sleep(50)
    expect(client.frames.filter((frame) => frame.userId)).toHaveLength(1)
  })

  it('closes with 1009 on a frame over the payload limit', async () => {
    const client = await open()
    client.send(JSON.stringify({ operation: 'auth', satoken: 'x'.repeat(5000) }))
    expect((await client.closed).code).toBe(WS_CLOSE.tooLarge)
  })

  it('sends an error then closes with 1008 past the subscription limit', async () => {
    const client = await open()
    for (const symbol of ['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee', 'ffff']) {
      client.send({ operation: 'subscribe', type: 'TRADE', symbol })
    }
    const { code } = await client.closed
    expect(code).toBe(WS_CLOSE.policyViolation)
    expect(client.frames.at(-1)).toEqual({
      type: 'error',
      code: WS_ERROR.tooManySubscriptions,
      msg: 'tooManySubscriptions',
    })
    await waitFor(() => gateway.app.live.hub.subscriberCount('TRADE:aaaa') === 0, 'subscriptions released')
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
  })

  it('reports connections, subscriptions and messages sent in /metrics', async () => {
    const client = await open()
    client.send({ operation: 'subscribe', type: 'TRADE', symbol: 'linkusdt' })
    await sleep(50)
    upstream.send({
      type: 'TRADE',
      symbol: 'linkusdt',
      ts: 4000,
      data: { price: '1', qty: '1', side: 'buy', time: 1 },
    })
    await client.next((frame) => frame.ts === 4000)
    const text = (await gateway.app.inject('/metrics')).body
    expect(text).toMatch(/^gateway_ws_connections\{[^}]*\} 1$/m)
    expect(text).toMatch(/^gateway_ws_subscriptions\{[^}]*\} 1$/m)
    expect(text).toMatch(/^gateway_ws_messages_sent_total\{[^}]*\} [1-9]\d*$/m)
    expect(text).toMatch(/^gateway_feed_connected\{[^}]*\} 1$/m)
    expect(text).toMatch(/^gateway_feed_lag_seconds\{[^}]*\} \d/m)
  })
})

describe('client socket lifecycle', () => {
  it('terminates a socket that stops answering pings, and closes the rest with 1001 on shutdown', async () => {
    const upstream = await startFakeUpstream()
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, WS_PING_INTERVAL_MS: 100 })
    try {
      const silent = await connectClient(gateway.socketUrl(), { autoPong: false })
      const healthy = await connectClient(gateway.socketUrl())
      const { code } = await silent.closed
      expect(code).toBe(1006)
      await sleep(250)
      expect(healthy.ws.readyState).toBe(WebSocket.OPEN)
      const closing = gateway.close()
      expect((await healthy.closed).code).toBe(WS_CLOSE.goingAway)
      await closing
    } finally {
      await gateway.close()
      await upstream.close()
    }
  })

  it('is ready only while the feed is connected, and reconnects it when the upstream drops it', async () => {
    const upstream = await startFakeUpstream()
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN })
    try {
      await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
      expect((await gateway.app.inject('/readyz')).statusCode).toBe(200)
      upstream.drop()
      await waitFor(async () => (await gateway.app.inject('/readyz')).statusCode === 503, 'not ready')
      expect((await gateway.app.inject('/readyz')).json().reasons).toContain(
        'feed: upstream feed not connected',
      )
      await waitFor(() => upstream.feedConnects === 2 && gateway.app.live.feed.connected, 'reconnected')
      expect((await gateway.app.inject('/readyz')).statusCode).toBe(200)
    } finally {
      await gateway.close()
      await upstream.close()
    }
  })

  it('reconnects a feed that goes silent', async () => {
    const upstream = await startFakeUpstream()
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, FEED_SILENCE_MS: 300 })
    try {
      await waitFor(() => upstream.feedConnects >= 2, 'reconnect after silence', 3000)
    } finally {
      await gateway.close()
      await upstream.close()
    }
  })

  it('stays not ready while the upstream refuses its feed token', async () => {
    const upstream = await startFakeUpstream()
    const gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN: 'a-wrong-token' })
    try {
      await sleep(500)
      expect(upstream.feedConnections).toBe(0)
      expect((await gateway.app.inject('/readyz')).statusCode).toBe(503)
    } finally {
      await gateway.close()
      await upstream.close()
    }
  })
})
