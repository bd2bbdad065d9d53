import { describe, expect, it } from 'vitest'
import {
  KLINE_INTERVAL_MS,
  changePercent,
  toDecimal,
  type KlineData,
  type KlineInterval,
} from '@tradegate/shared'
import { Market } from './market'

// The 24 hour ticker and every interval's candles come from one price history: the figures a header
// shows are the figures the chart beside it draws.

const HOUR = KLINE_INTERVAL_MS['60min']

function span(candles: readonly Pick<KlineData, 'open' | 'high' | 'low' | 'close'>[]) {
  const highs = candles.map((candle) => toDecimal(candle.high))
  const lows = candles.map((candle) => toDecimal(candle.low))
  return {
    open: toDecimal(candles[0]!.open).toFixed(),
    close: toDecimal(candles.at(-1)!.close).toFixed(),
    high: highs.reduce((a, b) => (b.greaterThan(a) ? b : a)).toFixed(),
    low: lows.reduce((a, b) => (b.lessThan(a) ? b : a)).toFixed(),
  }
}

function startedMarket() {
  // a start in the middle of an hour, so open candles of every interval hold part of a bucket
  let now = Date.UTC(2026, 2, 11, 9, 37, 21)
  const market = new Market({ seed: 7, tickMs: 200, clock: () => now })
  const advance = (ms: number, steps = 1) => {
    for (let step = 0; step < steps; step++) {
      now += ms
      market.step()
    }
  }
  return { market, advance }
}

function expectDetailMatchesCandles(market: Market, symbol: string) {
  const hours = market.candles(symbol, '60min', 24)
  const detail = market.detail(symbol)
  const hourly = span(hours)
  expect(hours.map((hour) => hour.time - hours[0]!.time)).toEqual(hours.map((_, index) => index * HOUR))
  expect(span([detail])).toEqual(hourly)
  expect(detail.change).toBe(changePercent(detail.close, hourly.open))
  // the same 24 hours read at finer intervals
  for (const interval of ['5min', '15min', '30min'] as KlineInterval[]) {
    const finer = market.candles(symbol, interval, 1000).filter((candle) => candle.time >= hours[0]!.time)
    expect(finer[0]!.time, interval).toBe(hours[0]!.time)
    expect(span(finer), interval).toEqual(hourly)
  }
}

describe('the 24 hour figures', () => {
  it('equal the last 24 hourly candles and the finer candles of the same hours, from the start', () => {
    const { market } = startedMarket()
    for (const symbol of ['btcusdt', 'ethusdt', 'dogeusdt']) expectDetailMatchesCandles(market, symbol)
  })

  it('still match while the price walks across an hour', () => {
    const { market, advance } = startedMarket()
    advance(2000, 700)
    for (const symbol of ['btcusdt', 'ethusdt']) expectDetailMatchesCandles(market, symbol)
  })

  it('still match after sandbox time jumps two days ahead', () => {
    const { market, advance } = startedMarket()
    advance(200, 20)
    advance(2 * 24 * HOUR + 1234)
    advance(200, 20)
    // the quiet hours are candles of their own, so the window does not reach back before the jump
    const closedHours = market.candles('btcusdt', '60min', 24).slice(0, -1)
    expect(closedHours.map((hour) => hour.vol)).toEqual(closedHours.map(() => '0'))
    expectDetailMatchesCandles(market, 'btcusdt')
  })

  it('every coarser candle is the sum of the finer candles it covers', () => {
    const { market, advance } = startedMarket()
    advance(1000, 50)
    const hours = market.candles('btcusdt', '60min', 300)
    const quarters = market.candles('btcusdt', '15min', 300)
    let compared = 0
    for (const hour of hours) {
      const inside = quarters.filter((q) => q.time >= hour.time && q.time < hour.time + HOUR)
      if (inside.length !== 4) continue
      compared++
      expect(span(inside)).toEqual(span([hour]))
      const volume = inside.reduce((sum, q) => sum.plus(q.vol), toDecimal(0))
      expect(volume.toFixed()).toBe(toDecimal(hour.vol).toFixed())
    }
    expect(compared).toBeGreaterThan(60)
  })
})
