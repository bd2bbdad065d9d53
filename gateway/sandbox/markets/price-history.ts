import type { Decimal } from 'decimal.js'
import {
  KLINE_INTERVALS,
  KLINE_INTERVAL_MS,
  deriveSeed,
  seededRandom,
  toDecimal,
  type KlineData,
  type KlineInterval,
} from '@tradegate/shared'
import { ZERO, text } from '../money/amounts'
import type { Instrument } from './catalogue'

// One price history behind every interval's candles. The finest interval is walked backwards from the
// starting price; each coarser interval is the sum of the finer candles it covers, walked further back
// only where the finer history ends. So a 15 minute chart, an hourly chart and the 24 hour ticker all
// read the same prices.

/** Candles each interval has at start, so a chart has something to draw at once. */
export const BACKFILL_CANDLES = 300
/** usdt value of a typical trade print */
export const TYPICAL_TRADE_USDT = 1500

export interface OpenCandle {
  time: number
  open: Decimal
  high: Decimal
  low: Decimal
  close: Decimal
  vol: Decimal
}

export interface IntervalHistory {
  /** closed candles, oldest first */
  closed: KlineData[]
  current: OpenCandle
}

export interface HistoryOptions {
  instrument: Instrument
  now: number
  seed: number
  /** the live walk's volatility per tick and the tick length, so the history moves like the walk */
  volatility: number
  tickMs: number
}

export function bucketOf(time: number, interval: KlineInterval): number {
  const ms = KLINE_INTERVAL_MS[interval]
  return Math.floor(time / ms) * ms
}

/** The coarsest earlier interval whose length divides this one's, or none for the finest. */
function finerSource(interval: KlineInterval): KlineInterval | undefined {
  const index = KLINE_INTERVALS.indexOf(interval)
  for (let finer = index - 1; finer >= 0; finer--) {
    const candidate = KLINE_INTERVALS[finer]!
    if (KLINE_INTERVAL_MS[interval] % KLINE_INTERVAL_MS[candidate] === 0) return candidate
  }
  return undefined
}

/** Every interval's closed candles and open candle at start, all from one price path. */
export function buildHistories(options: HistoryOptions): Record<KlineInterval, IntervalHistory> {
  const histories = {} as Record<KlineInterval, IntervalHistory>
  const price = toDecimal(options.instrument.startPrice)
  for (const interval of KLINE_INTERVALS) {
    const source = finerSource(interval)
    const bucket = bucketOf(options.now, interval)
    const fromFiner = source
      ? aggregate(histories[source], interval, bucket)
      : {
          closed: [],
          current: { time: bucket, open: price, high: price, low: price, close: price, vol: ZERO },
        }
    const oldest = fromFiner.closed[0]
    const before = walkBack(
      options,
      interval,
      oldest ? oldest.time : bucket,
      oldest ? oldest.open : text(fromFiner.current.open),
      BACKFILL_CANDLES - fromFiner.closed.length,
    )
    histories[interval] = { closed: [...before, ...fromFiner.closed], current: fromFiner.current }
  }
  return histories
}

/**
 * The candles of `interval` that a finer history covers whole, and the open candle (the finer closed
 * candles of the current bucket joined with the finer open candle). A bucket the finer history only
 * partly covers, at its old end, is left out: the walk back fills it.
 */
function aggregate(finer: IntervalHistory, interval: KlineInterval, currentBucket: number): IntervalHistory {
  const groups = new Map<number, KlineData[]>()
  for (const candle of finer.closed) {
    const bucket = bucketOf(candle.time, interval)
    const group = groups.get(bucket)
    if (group) group.push(candle)
    else groups.set(bucket, [candle])
  }
  const closed: KlineData[] = []
  for (const [bucket, group] of groups) {
    if (bucket === currentBucket || group[0]!.time !== bucket) continue
    closed.push(joinCandles(bucket, group))
  }
  const inCurrent = groups.get(currentBucket)
  const current = inCurrent ? joinOpen(joinCandles(currentBucket, inCurrent), finer.current) : finer.current
  return { closed, current: { ...current, time: currentBucket } }
}

/**
 * Closed candles joined into one. Highs and lows are picked, not computed, so comparing them as
 * numbers is exact enough and keeps start-up quick; volumes are summed as decimals.
 */
function joinCandles(time: number, group: readonly KlineData[]): KlineData {
  const first = group[0]!
  const joined = { ...first, time }
  let vol = toDecimal(first.vol)
  for (let index = 1; index < group.length; index++) {
    const part = group[index]!
    if (Number(part.high) > Number(joined.high)) joined.high = part.high
    if (Number(part.low) < Number(joined.low)) joined.low = part.low
    joined.close = part.close
    vol = vol.plus(part.vol)
  }
  joined.vol = text(vol)
  return joined
}

/** The closed part of a bucket followed by the finer open candle. */
function joinOpen(closed: KlineData, open: OpenCandle): OpenCandle {
  const high = toDecimal(closed.high)
  const low = toDecimal(closed.low)
  return {
    time: closed.time,
    open: toDecimal(closed.open),
    high: open.high.greaterThan(high) ? open.high : high,
    low: open.low.lessThan(low) ? open.low : low,
    close: open.close,
    vol: open.vol.plus(closed.vol),
  }
}

/** `count` candles before `firstTime`, walking backwards so the last one closes at `firstOpen`. */
function walkBack(
  options: HistoryOptions,
  interval: KlineInterval,
  firstTime: number,
  firstOpen: string,
  count: number,
): KlineData[] {
  const { instrument } = options
  const random = seededRandom(deriveSeed(options.seed, interval))
  const ms = KLINE_INTERVAL_MS[interval]
  const ticksPerCandle = ms / options.tickMs
  // a whole candle's spread, capped so monthly candles stay believable
  const spread = Math.min(options.volatility * Math.sqrt(ticksPerCandle), 0.25)
  const places = instrument.pricePlaces
  const typicalVolume = (TYPICAL_TRADE_USDT / Number(instrument.startPrice)) * Math.min(ticksPerCandle, 1e6)
  const candles: KlineData[] = []
  let close = Number(firstOpen)
  for (let index = 1; index <= count; index++) {
    const open = close * Math.exp(-spread * random.gaussian())
    const high = Math.max(open, close) * (1 + Math.abs(random.gaussian()) * spread * 0.3)
    const low = Math.min(open, close) * (1 - Math.min(Math.abs(random.gaussian()) * spread * 0.3, 0.5))
    candles.push({
      time: firstTime - index * ms,
      open: open.toFixed(places),
      high: high.toFixed(places),
      low: low.toFixed(places),
      // the newest walked candle closes exactly where the history after it opens
      close: index === 1 ? firstOpen : close.toFixed(places),
      vol: (typicalVolume * (0.5 + random.next())).toFixed(instrument.quantityPlaces),
    })
    close = open
  }
  return candles.reverse()
}

/** A candle as the feed and the kline call send it: decimal figures as text. */
export function candleData(candle: OpenCandle): KlineData {
  return {
    time: candle.time,
    open: text(candle.open),
    high: text(candle.high),
    low: text(candle.low),
    close: text(candle.close),
    vol: text(candle.vol),
  }
}
