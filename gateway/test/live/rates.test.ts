import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WS_ERROR, type DepthData, type StreamRate } from '@tradegate/shared'
import {
  FEED_TOKEN,
  startFakeUpstream,
  upstreamDepth,
  upstreamDetail,
  type FakeUpstream,
} from './fake-upstream'
import { connectClient, type Frame, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { RATE_SLOT_MS } from '../../src/live/rated-delivery'
import { sleep, waitFor } from './helpers'

// Subscriptions at a chosen rate: the gateway sends each topic's latest value at most once per
// period, from one timer per rate, and the snapshot at once on subscribe. A stand-in upstream
// sends the ticks, so the test knows exactly what was published and when.

const closeOf = (frame: Frame): string => (frame.data as { close: string }).close

function ofType(client: TestClient, type: string): Array<{ frame: Frame; at: number }> {
  return client.frames.flatMap((frame, i) =>
    frame.type === type ? [{ frame, at: client.arrivals[i]! }] : [],
  )
}

describe('subscriptions at a rate', () => {
  let upstream: FakeUpstream
  let gateway: RunningGateway
  const clients: TestClient[] = []
  const open = async (): Promise<TestClient> => {
    const client = await connectClient(gateway.socketUrl())
    clients.push(client)
    return client
  }
  /** publishes `count` DETAIL ticks for btcusdt, `everyMs` apart, closes 1..count */
  const tick = async (count: number, everyMs: number, from = 1): Promise<void> => {
    for (let i = from; i < from + count; i++) {
      upstream.send(upstreamDetail('btcusdt', i, Date.now()))
      upstream.send({
        type: 'TRADE',
        symbol: 'btcusdt',
        ts: Date.now(),
        data: { price: String(i), qty: '1', side: 'buy', time: Date.now() },
      })
      await sleep(everyMs)
    }
  }
  /**
   * The most frames a topic at `rate` may get between two readings of the rate's slots: one per period the
   * rate's timer went through, counted in its slots, not timed (a busy test process reads frames late and
   * together), and one for the period under way at the first reading.
   */
  const mostFramesBetween = (rate: StreamRate, slotsBefore: number): number =>
    Math.floor((gateway.app.live.hub.slotsSent(rate) - slotsBefore) / (rate / RATE_SLOT_MS)) + 1

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN })
    await waitFor(() => gateway.app.live.feed.connected, 'feed connected')
    upstream.send(upstreamDetail('btcusdt', 0, Date.now()))
    await waitFor(() => gateway.app.live.bus.snapshot('DETAIL:btcusdt').length === 1, 'a DETAIL snapshot')
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
    await waitFor(() => gateway.app.live.hub.topicCount === 0, 'every topic released')
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  it('at 100 ms: the snapshot at once, then at most one DETAIL per period, ending on the latest; TRADE untouched', async () => {
    // the latest tick and trade are this test's own, whatever the file's other tests left as the snapshots
    await tick(1, 0, 0)
    const atZero = (topic: string, field: 'close' | 'price') =>
      gateway.app.live.bus
        .snapshot(topic)
        .some(
          ({ frame }) => (JSON.parse(String(frame)) as { data: Record<string, string> }).data[field] === '0',
        )
    await waitFor(
      () => atZero('DETAIL:btcusdt', 'close') && atZero('TRADE:btcusdt', 'price'),
      'both snapshots at 0',
    )
    const rated = await open()
    const twin = await open()
    const raw = await open()
    twin.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 100 })
    rated.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 100 })
    rated.send({ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' })
    raw.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    const snapshot = await rated.next((frame) => frame.type === 'DETAIL')
    expect(closeOf(snapshot)).toBe('0')
    await waitFor(() => gateway.app.live.hub.subscriberCount('DETAIL:btcusdt') === 3, 'all subscribed')

    const slotsBefore = gateway.app.live.hub.slotsSent(100)
    await tick(60, 10)
    await rated.next((frame) => frame.type === 'DETAIL' && closeOf(frame) === '60', 1000)
    const most = mostFramesBetween(100, slotsBefore)
    await raw.next((frame) => frame.type === 'DETAIL' && closeOf(frame) === '60')
    await twin.next((frame) => frame.type === 'DETAIL' && closeOf(frame) === '60')
    // conflated once for the rate: both of its subscribers got the very same frames
    expect(ofType(twin, 'DETAIL').map(({ frame }) => frame)).toEqual(
      ofType(rated, 'DETAIL').map(({ frame }) => frame),
    )
    const updates = ofType(rated, 'DETAIL').slice(1)
    // one frame per period of the 100 ms timer while the ticks came, and never two within one
    expect(updates.length).toBeGreaterThanOrEqual(3)
    expect(updates.length).toBeLessThanOrEqual(most)
    const closes = updates.map(({ frame }) => Number(closeOf(frame)))
    expect(closes).toEqual([...closes].sort((a, b) => a - b))
    expect(new Set(closes).size).toBe(closes.length)
    // the raw subscriber got every tick; the rated one's TRADE stream is every trade, in order
    expect(ofType(raw, 'DETAIL').map(({ frame }) => closeOf(frame))).toEqual([
      '0',
      ...Array.from({ length: 60 }, (_, i) => String(i + 1)),
    ])
    await rated.next((frame) => frame.type === 'TRADE' && (frame.data as { price: string }).price === '60')
    expect(ofType(rated, 'TRADE').map(({ frame }) => (frame.data as { price: string }).price)).toEqual([
      '0',
      ...Array.from({ length: 60 }, (_, i) => String(i + 1)),
    ])
  })

  it("at 1000 ms: the snapshot ahead of the rate's timer, at most one frame per period, and nothing while the topic is quiet", async () => {
    // a subscriber at every tick holds the topic open, so a new subscription joins it at once (a topic
    // not yet open waits for the bus's subscription first)
    const raw = await open()
    raw.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    await raw.next((frame) => frame.type === 'DETAIL')
    const rated = await open()
    rated.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 1000 })
    // refused as soon as it is read: the snapshot comes before this refusal only if it did not wait
    // for the rate's timer, an order a busy machine cannot change
    rated.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 50 })
    await rated.next((frame) => frame.type === 'error')
    expect(rated.frames.map((frame) => frame.type)).toEqual(['DETAIL', 'error'])
    const slotsBefore = gateway.app.live.hub.slotsSent(1000)
    await tick(110, 20, 100)
    await rated.next((frame) => frame.type === 'DETAIL' && closeOf(frame) === '209', 2000)
    const updates = ofType(rated, 'DETAIL').slice(1)
    expect(updates.length).toBeGreaterThanOrEqual(2)
    expect(updates.length).toBeLessThanOrEqual(mostFramesBetween(1000, slotsBefore))
    // quiet topic: no repeats of the latest value through a period and a half, counted in the hub's slots
    const count = rated.frames.length
    const hub = gateway.app.live.hub
    const slotsAtQuiet = hub.slotsSent(1000)
    await waitFor(
      () => hub.slotsSent(1000) >= slotsAtQuiet + 1.5 * (1000 / RATE_SLOT_MS),
      'a period and a half',
    )
    expect(rated.frames.length).toBe(count)
  })

  it('at 1000 ms over a minute of steady ticks: at most one frame per period, periods counted in the hub', async () => {
    // a market list as the client opens one: two symbols at 1000 ms while both tick every 20 ms
    const list = await open()
    list.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 1000 })
    list.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'ethusdt', rate: 1000 })
    await waitFor(() => ofType(list, 'DETAIL').length >= 1, 'a snapshot')
    const hub = gateway.app.live.hub
    const slotsPerPeriod = 1000 / RATE_SLOT_MS
    // the snapshots are not counted: from here on, every DETAIL is a periodic update
    const framesBefore = ofType(list, 'DETAIL').length
    const slotsBefore = hub.slotsSent(1000)
    let stop = false
    const ticking = (async () => {
      for (let i = 1; !stop; i++) {
        upstream.send(upstreamDetail('btcusdt', i, Date.now()))
        upstream.send(upstreamDetail('ethusdt', i, Date.now()))
        await sleep(20)
      }
    })()
    await waitFor(() => hub.slotsSent(1000) - slotsBefore >= 60 * slotsPerPeriod, 'sixty periods', 120_000)
    stop = true
    await ticking
    const updates = ofType(list, 'DETAIL').slice(framesBefore)
    const periods = Math.floor((hub.slotsSent(1000) - slotsBefore) / slotsPerPeriod)
    for (const symbol of ['btcusdt', 'ethusdt']) {
      const frames = updates.filter(({ frame }) => frame.symbol === symbol)
      // one per period the topic changed in (every one here), and never a second within one
      expect(frames.length, symbol).toBeGreaterThanOrEqual(periods - 2)
      expect(frames.length, symbol).toBeLessThanOrEqual(periods + 1)
    }
  }, 150_000)

  it('keeps the last value of a closed candle and the new candle when both change within one period', async () => {
    upstream.send({
      type: 'KLINE',
      symbol: 'btcusdt',
      interval: '1min',
      ts: Date.now(),
      data: { time: 60_000, open: 1, high: 1, low: 1, close: 1, vol: 1 },
    })
    await waitFor(() => gateway.app.live.bus.snapshot('KLINE:btcusdt:1min').length === 1, 'a candle')
    const rated = await open()
    rated.send({ operation: 'subscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1min', rate: 1000 })
    await rated.next((frame) => frame.type === 'KLINE')
    const candle = (time: number, close: number) => ({
      type: 'KLINE',
      symbol: 'btcusdt',
      interval: '1min',
      ts: Date.now(),
      data: { time, open: 1, high: 9, low: 1, close, vol: close },
    })
    for (const close of [2, 3, 4]) upstream.send(candle(60_000, close))
    for (const close of [5, 6]) upstream.send(candle(120_000, close))
    await rated.next((frame) => frame.type === 'KLINE' && closeOf(frame) === '6', 2500)
    const seen = ofType(rated, 'KLINE').map(({ frame }) => [
      (frame.data as { time: number }).time,
      closeOf(frame),
    ])
    expect(seen).toEqual([
      [60_000, '1'],
      [60_000, '4'],
      [120_000, '6'],
    ])
  })

  it('keeps the latest DETAIL of every symbol for a subscription to all symbols at a rate', async () => {
    // both symbols sent here; an earlier test may have made others known, and each of those has its snapshot too
    upstream.send(upstreamDetail('btcusdt', 1, Date.now()))
    upstream.send(upstreamDetail('ethusdt', 1, Date.now()))
    const known = () => gateway.app.live.bus.snapshot('DETAIL:*').map((message) => message.header.topic)
    await waitFor(
      () => known().includes('DETAIL:btcusdt') && known().includes('DETAIL:ethusdt'),
      'both symbols known',
    )
    const symbols = known().length
    const rated = await open()
    rated.send({ operation: 'subscribe', type: 'DETAIL', rate: 1000 })
    await waitFor(() => ofType(rated, 'DETAIL').length === symbols, 'a snapshot per symbol')
    for (const close of [2, 3, 4]) upstream.send(upstreamDetail('ethusdt', close, Date.now()))
    upstream.send(upstreamDetail('btcusdt', 77, Date.now()))
    upstream.send(upstreamDetail('ethusdt', 5, Date.now()))
    await waitFor(
      () => ofType(rated, 'DETAIL').length === symbols + 2,
      'one frame per symbol that changed',
      2500,
    )
    const ticked = ofType(rated, 'DETAIL')
      .slice(symbols)
      .map(({ frame }) => [frame.symbol, closeOf(frame)])
    expect(ticked).toEqual([
      ['ethusdt', '5'],
      ['btcusdt', '77'],
    ])
  })

  it('sends a book at a rate as whole books, the latest each period', async () => {
    upstream.send(upstreamDepth('btcusdt', 1, true, [['10', '1']], [['11', '1']]))
    await waitFor(() => gateway.app.live.bus.snapshot('DEPTH:btcusdt').length === 1, 'a book')
    const rated = await open()
    rated.send({ operation: 'subscribe', type: 'DEPTH', symbol: 'btcusdt', rate: 250 })
    await rated.next((frame) => frame.type === 'DEPTH')
    const slotsBefore = gateway.app.live.hub.slotsSent(250)
    for (let seq = 2; seq <= 40; seq++) {
      upstream.send(upstreamDepth('btcusdt', seq, false, [['10', String(seq)]], []))
      // the upstream's pace, not a wait: the rate under test is per time, so the changes span periods
      await sleep(20)
    }
    await rated.next((frame) => frame.type === 'DEPTH' && (frame.data as { seq: number }).seq === 40, 1000)
    const books = ofType(rated, 'DEPTH').map(({ frame }) => frame.data as unknown as DepthData)
    expect(books.every((book) => book.snapshot)).toBe(true)
    // the book on subscribe, then at most one a period
    expect(books.length).toBeLessThanOrEqual(1 + mostFramesBetween(250, slotsBefore))
    expect(books.at(-1)).toEqual({ snapshot: true, seq: 40, bids: [['10', '40']], asks: [['11', '1']] })
  })

  it('spreads the topics of a rate over its period instead of sending them all in one burst', async () => {
    const symbols = ['btcusdt', 'ethusdt', 'solusdt']
    const candle = (symbol: string, close: number) => ({
      type: 'KLINE',
      symbol,
      interval: '1min',
      ts: Date.now(),
      data: { time: 60_000, open: 1, high: 9, low: 1, close, vol: close },
    })
    for (const symbol of symbols) {
      upstream.send(upstreamDetail(symbol, 0, Date.now()))
      upstream.send(candle(symbol, 0))
    }
    await waitFor(() => gateway.app.live.bus.snapshot('KLINE:solusdt:1min').length === 1, 'every candle')
    const rated = await open()
    for (const symbol of symbols) {
      rated.send({ operation: 'subscribe', type: 'DETAIL', symbol, rate: 1000 })
      rated.send({ operation: 'subscribe', type: 'KLINE', symbol, interval: '1min', rate: 1000 })
    }
    await waitFor(() => rated.frames.length === 6, 'six snapshots')
    // the slot each topic was last sent in, counted by the hub's rated delivery: a busy machine's late
    // timer sends the slots it missed in one go, so arrival times would not show the spread, the slot
    // count does
    const hub = (
      gateway.app.live.hub as unknown as {
        rated: {
          sendSlot(rate: number, dirty: Set<{ topic: string }>): void
          slotsSent(rate: number): number
        }
      }
    ).rated
    const sendSlot = hub.sendSlot.bind(hub)
    const lastSlotOf = new Map<string, number>()
    hub.sendSlot = (rate, dirty) => {
      if (rate === 1000) for (const { topic } of dirty) lastSlotOf.set(topic, hub.slotsSent(1000))
      sendSlot(rate, dirty)
    }
    // every topic changes many times within one period
    for (let close = 1; close <= 40; close++) {
      for (const symbol of symbols) {
        upstream.send(upstreamDetail(symbol, close, Date.now()))
        upstream.send(candle(symbol, close))
      }
      // the upstream's pace, not a wait: the changes are spread over the period under test
      await sleep(5)
    }
    await waitFor(
      () => rated.frames.filter((frame) => closeOf(frame) === '40').length === 6,
      'the latest value of every topic',
      2500,
    )
    hub.sendSlot = sendSlot
    // six topics dealt over the period's slots: their latest values went out in six different slots,
    // all within one period (1000 ms of 25 ms slots)
    const slots = [...lastSlotOf.values()]
    expect(lastSlotOf.size).toBe(6)
    expect(new Set(slots).size).toBe(6)
    expect(Math.max(...slots) - Math.min(...slots)).toBeLessThan(1000 / RATE_SLOT_MS)
    expect(
      new Set(rated.frames.slice(6).map((frame) => `${frame.type}:${frame.symbol}:${closeOf(frame)}`)).size,
    ).toBe(rated.frames.length - 6)
  })

  it('keeps a period to wall-clock time when its timer runs late', async () => {
    const rated = await open()
    rated.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 1000 })
    await rated.next((frame) => frame.type === 'DETAIL')
    const hub = gateway.app.live.hub
    // a busy event loop: every timer fires a few milliseconds late
    const hog = setInterval(() => {
      const until = performance.now() + 5
      while (performance.now() < until);
    }, 1)
    const from = { at: performance.now(), slots: hub.slotsSent(1000), frames: ofType(rated, 'DETAIL').length }
    try {
      await tick(260, 20, 500)
    } finally {
      clearInterval(hog)
    }
    const to = { at: performance.now(), slots: hub.slotsSent(1000) }
    // the slots sent, counted against this process's own clock (the gateway's too): without the catch-up
    // each of a period's 40 slots runs a few ms late, and about a sixth of the slots due would be missing;
    // the last tick may have run late by a few of them
    const due = (to.at - from.at) / RATE_SLOT_MS
    const sent = to.slots - from.slots
    expect(sent).toBeLessThanOrEqual(Math.ceil(due) + 1)
    expect(sent).toBeGreaterThanOrEqual(Math.floor(due * 0.95) - 2)
    // and each period that went by brought the changed topic once: frames counted against periods counted
    const periods = Math.floor(sent / (1000 / RATE_SLOT_MS))
    await waitFor(() => ofType(rated, 'DETAIL').length - from.frames >= periods, 'a frame per period')
    expect(ofType(rated, 'DETAIL').length - from.frames).toBeLessThanOrEqual(periods + 1)
  })

  it('moves a subscription to a new rate without a second subscription, and refuses bad rates', async () => {
    const client = await open()
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt', rate: 1000 })
    await client.next((frame) => frame.type === 'DETAIL')
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    await waitFor(() => ofType(client, 'DETAIL').length === 2, 'the snapshot again at the new rate')
    expect(gateway.app.live.hub.subscriberCount('DETAIL:btcusdt')).toBe(1)
    await tick(3, 5, 300)
    await client.next((frame) => frame.type === 'DETAIL' && closeOf(frame) === '302')
    expect(
      ofType(client, 'DETAIL')
        .map(({ frame }) => closeOf(frame))
        .slice(-3),
    ).toEqual(['300', '301', '302'])

    client.send('{"operation":"subscribe","type":"DETAIL","symbol":"ethusdt","rate":50}')
    client.send('{"operation":"subscribe","type":"TRADE","symbol":"ethusdt","rate":100}')
    client.send('{"operation":"subscribe","type":"KLINE","symbol":"ethusdt","interval":"1min","rate":"100"}')
    await waitFor(
      () => client.frames.filter((frame) => frame.type === 'error').length === 3,
      'three refusals',
    )
    expect(client.frames.filter((frame) => frame.type === 'error')).toEqual([
      { type: 'error', code: WS_ERROR.badFrame, msg: 'invalidRate' },
      { type: 'error', code: WS_ERROR.badFrame, msg: 'rateNotAllowed' },
      { type: 'error', code: WS_ERROR.badFrame, msg: 'invalidRate' },
    ])
    expect(gateway.app.live.hub.topicCount).toBe(1)
  })
})
