import { describe, expect, it } from 'vitest'
import {
  parseClientFrame,
  parseUpstreamFrame,
  topicOf,
  topicsOf,
  isLatestValueTopic,
  resyncFrame,
  type SubscriptionFrame,
} from './protocol'

describe('parseClientFrame', () => {
  it.each([
    ['{"operation":"subscribe","type":"DETAIL"}', { operation: 'subscribe', type: 'DETAIL' }],
    [
      '{"operation":"subscribe","type":"DETAIL","symbol":"btcusdt"}',
      { operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' },
    ],
    [
      '{"operation":"unsubscribe","type":"KLINE","symbol":"ethusdt","interval":"4hour"}',
      { operation: 'unsubscribe', type: 'KLINE', symbol: 'ethusdt', interval: '4hour' },
    ],
    [
      '{"operation":"subscribe","type":"TRADE","symbol":"trxusdt"}',
      { operation: 'subscribe', type: 'TRADE', symbol: 'trxusdt' },
    ],
    ['{"operation":"subscribe","type":"POSITION"}', { operation: 'subscribe', type: 'POSITION' }],
    [
      '{"operation":"auth","satoken":"eyJhbGciOi.J9-_~+/="}',
      { operation: 'auth', satoken: 'eyJhbGciOi.J9-_~+/=' },
    ],
    ['{"type":"HEARTBEAT"}', { type: 'HEARTBEAT' }],
    ['{"operation":"heartbeat"}', { operation: 'heartbeat' }],
  ])('accepts %s', (text, expected) => {
    expect(parseClientFrame(text)).toEqual({ ok: true, value: expected })
  })

  it.each([
    ['not json', 'invalidJson'],
    ['', 'invalidJson'],
    ['[]', 'frameMustBeObject'],
    ['null', 'frameMustBeObject'],
    ['"subscribe"', 'frameMustBeObject'],
    ['{"operation":"drop","type":"DETAIL"}', 'unknownOperation'],
    ['{"operation":"subscribe","type":"ORDERBOOK"}', 'unknownType'],
    ['{"operation":"subscribe","type":"DETAIL","symbol":"BTC/USDT"}', 'invalidSymbol'],
    ['{"operation":"subscribe","type":"DETAIL","symbol":42}', 'invalidSymbol'],
    ['{"operation":"subscribe","type":"TRADE"}', 'symbolRequired'],
    ['{"operation":"subscribe","type":"KLINE","symbol":"btcusdt","interval":"2min"}', 'invalidInterval'],
    ['{"operation":"subscribe","type":"KLINE","symbol":"btcusdt"}', 'invalidInterval'],
    ['{"operation":"auth"}', 'invalidToken'],
    [`{"operation":"auth","satoken":"${'x'.repeat(513)}"}`, 'invalidToken'],
    // the REST header's format: these never reach the upstream from a socket either
    ['{"operation":"auth","satoken":"%E4%B8%AD%E6%96%87"}', 'invalidToken'],
    ['{"operation":"auth","satoken":"a token with spaces"}', 'invalidToken'],
    ['{"operation":"auth","satoken":"short"}', 'invalidToken'],
    ['{"operation":"auth","satoken":"\u4e2d\u6587\u4e2d\u6587\u4e2d\u6587\u4e2d\u6587"}', 'invalidToken'],
    ['{"operation":"auth","satoken":12345678}', 'invalidToken'],
    ['{"__proto__":{"polluted":1},"operation":"subscribe","type":"X"}', 'unknownType'],
  ])('refuses %s with %s', (text, error) => {
    expect(parseClientFrame(text)).toEqual({ ok: false, error })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('parseUpstreamFrame', () => {
  it('normalises detail numbers, flat or under data.tick, into decimal strings', () => {
    const tick = { open: 1, close: 2.5, high: 3, low: 0.5, vol: 10, amount: 25, change: '150' }
    const flat = parseUpstreamFrame(JSON.stringify({ type: 'DETAIL', symbol: 'btcusdt', data: tick, ts: 5 }))
    const nested = parseUpstreamFrame(
      JSON.stringify({ type: 'DETAIL', symbol: 'btcusdt', data: { tick }, ts: 5 }),
    )
    const expected = {
      ok: true,
      value: {
        type: 'DETAIL',
        symbol: 'btcusdt',
        data: { open: '1', close: '2.5', high: '3', low: '0.5', vol: '10', amount: '25', change: '150' },
        ts: 5,
      },
    }
    expect(flat).toEqual(expected)
    expect(nested).toEqual(expected)
  })

  it("keeps a contract pair's mark, index and funding only when all of them are well formed", () => {
    const tick = { open: 1, close: 2, high: 3, low: 1, vol: 1, amount: 2, change: '0' }
    const futures = { markPrice: '2.01', indexPrice: 2, fundingRate: '-0.0001', nextFundingTime: 28_800_000 }
    const parse = (extra: object) =>
      parseUpstreamFrame(JSON.stringify({ type: 'DETAIL', symbol: 'btcusdt', data: { ...tick, ...extra } }))
    expect(parse(futures)).toMatchObject({
      ok: true,
      value: {
        data: { markPrice: '2.01', indexPrice: '2', fundingRate: '-0.0001', nextFundingTime: 28_800_000 },
      },
    })
    const broken = parse({ ...futures, fundingRate: 'high' })
    expect(broken.ok && 'data' in broken.value && 'markPrice' in broken.value.data).toBe(false)
  })

  it('writes every market frame with its fields in one order, whatever order and extras the upstream sent', () => {
    const browserText = (upstream: object) => {
      const parsed = parseUpstreamFrame(JSON.stringify(upstream))
      return parsed.ok ? JSON.stringify(parsed.value) : parsed.error
    }
    const contract = {
      fundingRate: '0.0001',
      nextFundingTime: 9,
      indexPrice: 2,
      markPrice: '2.01',
      note: 'x',
    }
    const prices = { vol: 1, low: 1, high: 3, close: 2, open: 1, amount: 2, change: '0' }
    expect(browserText({ ts: 5, data: { ...contract, ...prices }, symbol: 'btcusdt', type: 'DETAIL' })).toBe(
      '{"type":"DETAIL","symbol":"btcusdt","data":{"open":"1","close":"2","high":"3","low":"1","vol":"1",' +
        '"amount":"2","change":"0","markPrice":"2.01","indexPrice":"2","fundingRate":"0.0001","nextFundingTime":9},"ts":5}',
    )
    // a spot pair's detail, the other shape the same code writes
    expect(browserText({ type: 'DETAIL', symbol: 'btcusdt', data: prices, ts: 5 })).toBe(
      '{"type":"DETAIL","symbol":"btcusdt","data":{"open":"1","close":"2","high":"3","low":"1","vol":"1",' +
        '"amount":"2","change":"0"},"ts":5}',
    )
    const candle = { vol: 4, close: 2, low: 1, high: 3, open: 1, time: 60_000, extra: true }
    expect(browserText({ type: 'KLINE', interval: '1min', symbol: 'btcusdt', data: candle, ts: 7 })).toBe(
      '{"type":"KLINE","symbol":"btcusdt","interval":"1min",' +
        '"data":{"time":60000,"open":"1","high":"3","low":"1","close":"2","vol":"4"},"ts":7}',
    )
    const print = { time: 6, side: 'sell', qty: 0.5, price: '100', id: 1 }
    expect(browserText({ type: 'TRADE', symbol: 'btcusdt', data: print, ts: 8 })).toBe(
      '{"type":"TRADE","symbol":"btcusdt","data":{"price":"100","qty":"0.5","side":"sell","time":6},"ts":8}',
    )
  })

  it('stamps the arrival time when the upstream sends none', () => {
    const frame = parseUpstreamFrame('{"type":"HEARTBEAT"}', 1234)
    expect(frame).toEqual({ ok: true, value: { type: 'HEARTBEAT', ts: 1234 } })
  })

  it('routes user events by user id', () => {
    const frame = parseUpstreamFrame('{"type":"SETTLEMENT","userId":17,"data":{"id":1},"ts":9}')
    expect(frame).toEqual({ ok: true, value: { type: 'SETTLEMENT', userId: '17', data: { id: 1 }, ts: 9 } })
    if (frame.ok) expect(topicsOf(frame.value)).toEqual(['USER:17'])
  })

  it.each([
    ['{"type":"DETAIL","symbol":"btcusdt","data":{"open":"x"}}', 'invalidData'],
    [
      '{"type":"DETAIL","symbol":"btcusdt","data":{"open":1,"close":1,"high":1,"low":1,"vol":1,"amount":1,"change":"NaN"}}',
      'invalidData',
    ],
    [
      '{"type":"KLINE","symbol":"btcusdt","interval":"1min","data":{"open":1,"high":1,"low":1,"close":1,"vol":1}}',
      'invalidData',
    ],
    ['{"type":"TRADE","symbol":"btcusdt","data":{"price":1,"qty":1,"side":"up","time":1}}', 'invalidData'],
    ['{"type":"POSITION","userId":"a b","data":{}}', 'invalidUserId'],
    ['{"type":"POSITION","userId":"7","data":[]}', 'invalidData'],
    ['{"type":"DETAIL","symbol":"../x","data":{}}', 'invalidSymbol'],
    ['{"type":"BOOK"}', 'unknownType'],
    ['{', 'invalidJson'],
  ])('refuses %s', (text, error) => {
    expect(parseUpstreamFrame(text)).toEqual({ ok: false, error })
  })

  it('publishes a detail on its symbol topic and on the every-symbol topic', () => {
    const frame = parseUpstreamFrame(
      '{"type":"DETAIL","symbol":"ethusdt","data":{"open":1,"close":1,"high":1,"low":1,"vol":1,"amount":1,"change":0}}',
    )
    expect(frame.ok && topicsOf(frame.value)).toEqual(['DETAIL:ethusdt', 'DETAIL:*'])
  })
})

describe('topics', () => {
  it('maps subscriptions to topics; user streams need a resolved user', () => {
    const cases: Array<[SubscriptionFrame, string | undefined, string | null]> = [
      [{ operation: 'subscribe', type: 'DETAIL' }, undefined, 'DETAIL:*'],
      [{ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' }, undefined, 'DETAIL:btcusdt'],
      [
        { operation: 'subscribe', type: 'KLINE', symbol: 'btcusdt', interval: '1day' },
        undefined,
        'KLINE:btcusdt:1day',
      ],
      [{ operation: 'subscribe', type: 'TRADE', symbol: 'btcusdt' }, undefined, 'TRADE:btcusdt'],
      [{ operation: 'subscribe', type: 'POSITION' }, undefined, null],
      [{ operation: 'subscribe', type: 'OWNCOIN' }, '42', 'USER:42'],
    ]
    for (const [frame, user, topic] of cases) expect(topicOf(frame, user)).toBe(topic)
  })

  it('lets only DETAIL and KLINE skip stale values', () => {
    expect(isLatestValueTopic('DETAIL:btcusdt')).toBe(true)
    expect(isLatestValueTopic('KLINE:btcusdt:1min')).toBe(true)
    expect(isLatestValueTopic('TRADE:btcusdt')).toBe(false)
    expect(isLatestValueTopic('USER:1')).toBe(false)
  })
})

describe('resyncFrame', () => {
  it('is the gateway frame that tells a socket its streams may have lost frames', () => {
    expect(JSON.stringify(resyncFrame('bus', 42))).toBe('{"type":"resync","reason":"bus","ts":42}')
    expect(resyncFrame('feed', 7)).toEqual({ type: 'resync', reason: 'feed', ts: 7 })
  })

  it('cannot come from the upstream feed', () => {
    expect(parseUpstreamFrame('{"type":"resync","reason":"feed","ts":1}')).toEqual({
      ok: false,
      error: 'unknownType',
    })
  })
})
