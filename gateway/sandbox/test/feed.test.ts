import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { KLINE_INTERVALS, WS_ERROR, parseUpstreamFrame } from '@tradegate/shared'
import { DEFAULT_TICK_MS, type Sandbox } from '../app'
import { Client, eventually, openFeed, registeredClient, startTestSandbox, type FeedSocket } from './helpers'

const isMarker = (frame: Record<string, unknown>) => frame.type === 'error' && frame.msg === 'invalidJson'

/** Everything the sandbox sent `feed` before this call has arrived: it answers a bad frame, in order. */
async function delivered(feed: FeedSocket): Promise<void> {
  const from = feed.frames.length
  feed.socket.send('not json')
  // the frame is looked at first, so the position is looked up for markers only
  await feed.next((frame) => isMarker(frame) && feed.frames.indexOf(frame) >= from)
}

/** `count` more ticks have gone out, as a feed-token socket sees them: btcusdt's DETAIL, one a tick. */
async function ticksPass(watcher: FeedSocket, count: number): Promise<void> {
  const ticks = () =>
    watcher.frames.filter((frame) => frame.type === 'DETAIL' && frame.symbol === 'btcusdt').length
  const start = ticks()
  // polled rather than checked on every frame: a feed-token socket gets thousands
  await eventually(() => (ticks() >= start + count ? true : undefined), 30_000)
}

describe('sandbox feed', () => {
  let sandbox: Sandbox

  beforeAll(async () => {
    // the default tick, as `npm run sandbox` runs it
    sandbox = await startTestSandbox({ tickMs: undefined })
  })
  afterAll(() => sandbox.close())

  it('sends DETAIL for at least 30 symbols at 5 or more a second each, with realistic prices', async () => {
    // the rate is the tick's: every symbol gets a DETAIL on every tick, and a tick is at most 200 ms
    // (counted per tick rather than per wall-clock second, so a starved machine cannot fail it)
    expect(1000 / DEFAULT_TICK_MS).toBeGreaterThanOrEqual(5)
    const feed = await openFeed(sandbox, true)
    const isDetail = (frame: Record<string, unknown>) => frame.type === 'DETAIL'
    const first = Number((await feed.next(isDetail)).ts)
    await feed.next((frame) => isDetail(frame) && Number(frame.ts) >= first + 12 * DEFAULT_TICK_MS, 30_000)
    const window = feed.frames.filter(isDetail)
    await feed.close()

    // whole ticks only: the first and last may be cut by the socket's opening and the slice
    const ticks = [...new Set(window.map((frame) => Number(frame.ts)))].sort((a, b) => a - b).slice(1, -1)
    const perSymbol = new Map<string, number>()
    for (const frame of window) {
      if (!ticks.includes(Number(frame.ts))) continue
      perSymbol.set(String(frame.symbol), (perSymbol.get(String(frame.symbol)) ?? 0) + 1)
    }
    expect(perSymbol.size).toBeGreaterThanOrEqual(30)
    expect(ticks.length).toBeGreaterThanOrEqual(3)
    for (const [symbol, count] of perSymbol) expect(count, `${symbol} DETAIL per tick`).toBe(ticks.length)
    const btc = window.find((frame) => frame.type === 'DETAIL' && frame.symbol === 'btcusdt')
    const close = Number((btc?.data as { close: string }).close)
    expect(close).toBeGreaterThan(30_000)
    expect(close).toBeLessThan(150_000)
  })

  it('gives a feed-token socket every frame kind, each a valid upstream frame, without subscribing', async () => {
    const feed = await openFeed(sandbox, true)
    await feed.next((frame) => frame.type === 'KLINE' && frame.interval === '1mon', 3000)
    await feed.next((frame) => frame.type === 'TRADE')
    await feed.next((frame) => frame.type === 'HEARTBEAT', 6000)
    const intervals = new Set(
      feed.frames.filter((frame) => frame.type === 'KLINE').map((frame) => frame.interval),
    )
    expect([...intervals].sort()).toEqual([...KLINE_INTERVALS].sort())
    for (const frame of feed.frames) {
      const parsed = parseUpstreamFrame(JSON.stringify(frame))
      expect(parsed.ok, JSON.stringify(frame)).toBe(true)
      if ('ts' in frame) expect(Math.abs(Number(frame.ts) - Date.now())).toBeLessThan(10_000)
    }
    await feed.close()
  }, 10_000)

  it('sends per-user events, tagged with the user id, only to the feed-token socket', async () => {
    const gateway = await openFeed(sandbox, true)
    const browser = await openFeed(sandbox, false)
    browser.socket.send(JSON.stringify({ operation: 'auth', satoken: 'whatever' }))
    browser.socket.send(JSON.stringify({ operation: 'subscribe', type: 'OWNCOIN' }))
    const refusal = await browser.next((frame) => frame.type === 'error')
    expect(refusal).toMatchObject({ code: WS_ERROR.notAuthorised })

    const client = await registeredClient(sandbox)
    const { userId } = await client.ok('userInfo')
    await client.control('/sandbox/deposit', { userId, coin: 'usdt', amount: '25' })
    const event = await gateway.next(
      (frame) =>
        frame.type === 'OWNCOIN' &&
        frame.userId === userId &&
        (frame.data as { available: string }).available === '105',
    )
    expect(event.data).toMatchObject({
      coin: 'usdt',
      account: 'platform',
      frozen: '0',
      kind: 'deposit',
      change: '25',
    })
    // the event went out to every socket it was for before the gateway's copy arrived
    await delivered(browser)
    expect(browser.frames.some((frame) => 'userId' in frame)).toBe(false)
    await Promise.all([gateway.close(), browser.close()])
  })

  it('answers a client subscription with a snapshot, then only the subscribed topic', async () => {
    const watcher = await openFeed(sandbox, true)
    const browser = await openFeed(sandbox, false)
    const unasked = (from = 0) =>
      browser.frames.slice(from).filter((frame) => frame.type !== 'HEARTBEAT' && !isMarker(frame))
    await ticksPass(watcher, 3)
    await delivered(browser)
    expect(unasked()).toEqual([])
    browser.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt' }))
    const snapshot = await browser.next((frame) => frame.type === 'DETAIL')
    expect(snapshot.symbol).toBe('ethusdt')
    browser.socket.send(
      JSON.stringify({ operation: 'subscribe', type: 'KLINE', symbol: 'btcusdt', interval: '5min' }),
    )
    await browser.next((frame) => frame.type === 'KLINE')
    await ticksPass(watcher, 6)
    await delivered(browser)
    const kinds = new Set(
      unasked().map((frame) => `${frame.type}:${frame.symbol ?? ''}:${frame.interval ?? ''}`),
    )
    kinds.delete('HEARTBEAT::')
    expect([...kinds].sort()).toEqual(['DETAIL:ethusdt:', 'KLINE:btcusdt:5min'])

    browser.socket.send(JSON.stringify({ operation: 'unsubscribe', type: 'DETAIL', symbol: 'ethusdt' }))
    browser.socket.send(
      JSON.stringify({ operation: 'unsubscribe', type: 'KLINE', symbol: 'btcusdt', interval: '5min' }),
    )
    // answered in order: nothing of either stream comes after the marker
    await delivered(browser)
    const after = browser.frames.length
    await ticksPass(watcher, 3)
    await delivered(browser)
    expect(unasked(after)).toEqual([])
    await Promise.all([browser.close(), watcher.close()])
  })

  it('answers a bad frame with an error and keeps the socket open', async () => {
    const browser = await openFeed(sandbox, false)
    browser.socket.send('not json')
    browser.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL', symbol: 'nosuchcoin' }))
    await browser.next((frame) => frame.type === 'error' && frame.msg === 'invalidJson')
    await browser.next((frame) => frame.type === 'error' && frame.msg === 'unknownSymbol')
    browser.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DETAIL' }))
    await browser.next((frame) => frame.type === 'DETAIL')
    expect(browser.socket.readyState).toBe(browser.socket.OPEN)
    await browser.close()
  })

  it('pauses without closing, resumes, and drops every socket on request', async () => {
    const control = new Client(sandbox.url)
    const feed = await openFeed(sandbox, true)
    await feed.next((frame) => frame.type === 'DETAIL')
    await control.control('/sandbox/feed/pause')
    await delivered(feed)
    const pausedAt = feed.frames.length
    // the market goes on while the feed is paused: its price moves twice, and nothing is sent
    for (let move = 0; move < 2; move++) {
      const price = sandbox.state.market.price('btcusdt')
      await eventually(() => (sandbox.state.market.price('btcusdt').equals(price) ? undefined : true), 20_000)
    }
    await delivered(feed)
    expect(feed.frames.slice(pausedAt).filter((frame) => !isMarker(frame))).toEqual([])
    expect(feed.socket.readyState).toBe(feed.socket.OPEN)
    await control.control('/sandbox/feed/resume')
    await feed.next((_frame) => feed.frames.length > pausedAt)

    const closed = new Promise((resolve) => feed.socket.once('close', resolve))
    const { dropped } = await control.control<{ dropped: number }>('/sandbox/feed/drop')
    expect(dropped).toBeGreaterThanOrEqual(1)
    await closed
  })

  it('refuses an upgrade outside /ws/:id', async () => {
    const socket = new WebSocket(`${sandbox.url.replace('http', 'ws')}/socket/abc`)
    const error = await new Promise<Error>((resolve) => socket.once('error', resolve))
    expect(error.message).toContain('404')
  })
})

describe('sandbox market data', () => {
  it('repeats the same prices for the same seed and start time', async () => {
    // the history is walked back from the start, so two sandboxes agree when they start at one instant
    // (a busy machine may start the second in a later minute)
    const startedAt = Date.now()
    const clock = () => startedAt
    const first = await startTestSandbox({ seed: 7, tickMs: 60_000, clock })
    const second = await startTestSandbox({ seed: 7, tickMs: 60_000, clock })
    try {
      const pathOf = (sandbox: Sandbox) =>
        Array.from({ length: 20 }, () =>
          sandbox.state.market
            .step()
            .map((tick) => tick.price.toFixed())
            .join(','),
        )
      expect(pathOf(first)).toEqual(pathOf(second))
      const client = new Client(first.url)
      const candles = await client.ok('kline', { query: { symbol: 'btcusdt', interval: '1day' } })
      expect(candles).toHaveLength(300)
      const other = await new Client(second.url).ok('kline', {
        query: { symbol: 'btcusdt', interval: '1day', limit: '5' },
      })
      expect(other.slice(0, 4)).toEqual(candles.slice(-5, -1))
    } finally {
      await Promise.all([first.close(), second.close()])
    }
  })
})
