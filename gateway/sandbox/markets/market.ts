import type { Decimal } from 'decimal.js'
import {
  KLINE_INTERVALS,
  KLINE_INTERVAL_MS,
  YEAR_MS,
  changePercent,
  toDecimal,
  type DetailData,
  type KlineData,
  type KlineInterval,
  type TradeData,
} from '@tradegate/shared'
import { refuse } from '../api/refusal'
import { deriveSeed, seededRandom, type Random } from '@tradegate/shared'
import { ZERO, text } from '../money/amounts'
import { INSTRUMENTS, QUOTE_COIN, type Instrument } from './catalogue'
import { OrderBook } from './order-book'
import { FUNDING_INTERVAL_MS, ReferencePrices, nextFundingTime } from './reference-prices'
import { TYPICAL_TRADE_USDT, bucketOf, buildHistories, candleData, type OpenCandle } from './price-history'

// The simulated market: one seeded random walk per symbol, candles for every interval drawn from it
// (see price-history.ts), the rolling 24 hours read from the same candles, trade prints.

/** Closed candles kept per series; the kline call serves at most 1000. */
const HISTORY_LIMIT = 1000
/** Per-tick volatility at a 200 ms tick: about 6 % a day, enough to watch prices move. */
const VOLATILITY_PER_200MS = 0.0001
const TRADE_PROBABILITY = 0.7
const DAY_WINDOW_HOURS = 24

interface DayWindow {
  open: Decimal
  high: Decimal
  low: Decimal
  vol: Decimal
  amount: Decimal
}

interface SymbolState {
  instrument: Instrument
  price: Decimal
  walk: Random
  prints: Random
  history: Record<KlineInterval, KlineData[]>
  current: Record<KlineInterval, OpenCandle>
  /** the 23 closed hourly candles before the current one, summed once an hour */
  closedHours: DayWindow | null
  lastTrade: TradeData | null
  book: OrderBook
  /** index and mark, kept for contract pairs */
  reference: ReferencePrices | null
}

/** A contract pair's reference prices and funding at one moment. */
export interface ContractReference {
  indexPrice: Decimal
  markPrice: Decimal
  fundingRate: Decimal
  nextFundingTime: number
  fundingIntervalMs: number
}

export interface SymbolTick {
  symbol: string
  price: Decimal
  trade: TradeData | null
}

export interface MarketOptions {
  seed: number
  tickMs: number
  clock: () => number
}

export class Market {
  private readonly states = new Map<string, SymbolState>()
  private readonly volatility: number

  constructor(private readonly options: MarketOptions) {
    this.volatility = VOLATILITY_PER_200MS * Math.sqrt(options.tickMs / 200)
    const now = options.clock()
    for (const instrument of INSTRUMENTS)
      this.states.set(instrument.symbol, this.createState(instrument, now))
  }

  /** The walk's own volatility, annualised over 365-day years, as an option chain quotes it. */
  get annualVolatility(): Decimal {
    return toDecimal(this.volatility)
      .times(toDecimal(YEAR_MS / this.options.tickMs).sqrt())
      .toDecimalPlaces(4)
  }

  get instruments(): readonly Instrument[] {
    return INSTRUMENTS
  }

  has(symbol: string): boolean {
    return this.states.has(symbol)
  }

  instrument(symbol: string): Instrument {
    return this.state(symbol).instrument
  }

  instrumentOfCoin(coin: string): Instrument | undefined {
    return INSTRUMENTS.find((instrument) => instrument.coin === coin)
  }

  price(symbol: string): Decimal {
    return this.state(symbol).price
  }

  /** A contract pair's index, mark and funding; null for a pair not traded as a contract. */
  reference(symbol: string): ContractReference | null {
    const reference = this.state(symbol).reference
    if (!reference) return null
    return {
      indexPrice: reference.index,
      markPrice: reference.markPrice,
      fundingRate: reference.fundingRate,
      nextFundingTime: nextFundingTime(this.options.clock()),
      fundingIntervalMs: FUNDING_INTERVAL_MS,
    }
  }

  /** The price contract PnL and liquidation watch: the mark of a contract pair, else the last price. */
  markPrice(symbol: string): Decimal {
    const state = this.state(symbol)
    return state.reference?.markPrice ?? state.price
  }

  /** The symbol's order book, its simulated liquidity kept around the price. */
  book(symbol: string): OrderBook {
    return this.state(symbol).book
  }

  /** usdt per one unit of the coin; unknown coins are refused */
  usdtPrice(coin: string): Decimal {
    if (coin === QUOTE_COIN) return toDecimal(1)
    const instrument = this.instrumentOfCoin(coin)
    if (!instrument) return refuse('unknownCoin')
    return this.price(instrument.symbol)
  }

  /** Advances every symbol one step of its walk. */
  step(): SymbolTick[] {
    const now = this.options.clock()
    const ticks: SymbolTick[] = []
    for (const state of this.states.values()) {
      const move = toDecimal((this.volatility * state.walk.gaussian()).toFixed(12))
      const next = state.price.times(move.plus(1)).toDecimalPlaces(state.instrument.pricePlaces)
      const smallest = toDecimal(1).dividedBy(10 ** state.instrument.pricePlaces)
      const price = next.greaterThan(0) ? next : smallest
      const trade = this.printTrade(state, price, now)
      this.apply(state, price, trade ? toDecimal(trade.qty) : ZERO, now)
      state.book.moveTo(price)
      ticks.push({ symbol: state.instrument.symbol, price, trade })
    }
    return ticks
  }

  /** Moves a price at once (control call); the walk continues from there. */
  setPrice(symbol: string, price: Decimal): SymbolTick {
    const state = this.state(symbol)
    const rounded = price.toDecimalPlaces(state.instrument.pricePlaces)
    if (!rounded.greaterThan(0)) return refuse('priceMustBePositive')
    this.apply(state, rounded, ZERO, this.options.clock())
    state.book.moveTo(rounded)
    return { symbol, price: rounded, trade: null }
  }

  /** Oldest first, the open candle last. */
  candles(symbol: string, interval: KlineInterval, limit: number): KlineData[] {
    const state = this.state(symbol)
    const closed = state.history[interval]
    const take = Math.max(0, limit - 1)
    return [...(take > 0 ? closed.slice(-take) : []), this.currentCandle(symbol, interval)]
  }

  currentCandle(symbol: string, interval: KlineInterval): KlineData {
    return candleData(this.state(symbol).current[interval])
  }

  lastTrade(symbol: string): TradeData | null {
    return this.state(symbol).lastTrade
  }

  /** The rolling 24 hour figures. */
  detail(symbol: string): DetailData {
    const state = this.state(symbol)
    const hour = state.current['60min']
    const closed = state.closedHours
    const open = closed ? closed.open : hour.open
    const high = closed && closed.high.greaterThan(hour.high) ? closed.high : hour.high
    const low = closed && closed.low.lessThan(hour.low) ? closed.low : hour.low
    const vol = hour.vol.plus(closed ? closed.vol : 0)
    const amount = hour.vol.times(hour.close).plus(closed ? closed.amount : 0)
    return {
      open: text(open),
      close: text(state.price),
      high: text(high),
      low: text(low),
      vol: text(vol),
      amount: text(amount.toDecimalPlaces(2)),
      change: changePercent(state.price, open),
      ...this.referenceDetail(symbol),
    }
  }

  private referenceDetail(symbol: string): Partial<DetailData> {
    const reference = this.reference(symbol)
    if (!reference) return {}
    return {
      markPrice: text(reference.markPrice),
      indexPrice: text(reference.indexPrice),
      fundingRate: text(reference.fundingRate),
      nextFundingTime: reference.nextFundingTime,
    }
  }

  private state(symbol: string): SymbolState {
    return this.states.get(symbol) ?? refuse('unknownSymbol')
  }

  private printTrade(state: SymbolState, price: Decimal, now: number): TradeData | null {
    // drawn every tick whatever happens, so prices and prints never depend on user activity
    const chance = state.prints.next()
    const size = state.prints.next()
    if (chance > TRADE_PROBABILITY) return null
    const typicalQty = TYPICAL_TRADE_USDT / Number(state.instrument.startPrice)
    const places = state.instrument.quantityPlaces
    const qty = Math.max((0.1 + size * 2) * typicalQty, 10 ** -places)
    const trade: TradeData = {
      price: text(price),
      qty: qty.toFixed(places),
      side: price.greaterThanOrEqualTo(state.price) ? 'buy' : 'sell',
      time: now,
    }
    state.lastTrade = trade
    return trade
  }

  private apply(state: SymbolState, price: Decimal, volume: Decimal, now: number): void {
    state.price = price
    state.reference?.note(price)
    for (const interval of KLINE_INTERVALS) {
      const bucket = bucketOf(now, interval)
      let candle = state.current[interval]
      if (bucket > candle.time) {
        this.close(state, interval, candle)
        this.fillQuietBuckets(state, interval, candle, bucket)
        candle = {
          time: bucket,
          open: candle.close,
          high: candle.close,
          low: candle.close,
          close: candle.close,
          vol: ZERO,
        }
        state.current[interval] = candle
      }
      if (price.greaterThan(candle.high)) candle.high = price
      if (price.lessThan(candle.low)) candle.low = price
      candle.close = price
      candle.vol = candle.vol.plus(volume)
    }
  }

  /**
   * Buckets no tick fell in (sandbox time moved forward at once) get flat candles, so every interval
   * stays a series without holes and the last 23 closed hours are the 23 hours before this one.
   */
  private fillQuietBuckets(
    state: SymbolState,
    interval: KlineInterval,
    last: OpenCandle,
    bucket: number,
  ): void {
    const ms = KLINE_INTERVAL_MS[interval]
    const first = Math.max(last.time + ms, bucket - HISTORY_LIMIT * ms)
    const { close } = last
    for (let time = first; time < bucket; time += ms)
      this.close(state, interval, { time, open: close, high: close, low: close, close, vol: ZERO })
  }

  private close(state: SymbolState, interval: KlineInterval, candle: OpenCandle): void {
    const history = state.history[interval]
    history.push(candleData(candle))
    if (history.length > HISTORY_LIMIT) history.splice(0, history.length - HISTORY_LIMIT)
    if (interval === '60min') state.closedHours = summariseHours(history.slice(-(DAY_WINDOW_HOURS - 1)))
  }

  private createState(instrument: Instrument, now: number): SymbolState {
    const seed = deriveSeed(this.options.seed, instrument.symbol)
    const price = toDecimal(instrument.startPrice)
    const histories = buildHistories({
      instrument,
      now,
      seed,
      volatility: this.volatility,
      tickMs: this.options.tickMs,
    })
    const history = {} as Record<KlineInterval, KlineData[]>
    const current = {} as Record<KlineInterval, OpenCandle>
    for (const interval of KLINE_INTERVALS) {
      history[interval] = histories[interval].closed
      current[interval] = histories[interval].current
    }
    return {
      instrument,
      price,
      walk: seededRandom(deriveSeed(seed, 'walk')),
      prints: seededRandom(deriveSeed(seed, 'prints')),
      history,
      current,
      closedHours: summariseHours(history['60min'].slice(-(DAY_WINDOW_HOURS - 1))),
      lastTrade: null,
      book: new OrderBook(instrument, seededRandom(deriveSeed(seed, 'book')), price),
      reference: instrument.contract ? new ReferencePrices(price, instrument.pricePlaces) : null,
    }
  }
}

function summariseHours(hours: KlineData[]): DayWindow | null {
  const first = hours[0]
  if (!first) return null
  let high = toDecimal(first.high)
  let low = toDecimal(first.low)
  let vol = ZERO
  let amount = ZERO
  for (const hour of hours) {
    const hourHigh = toDecimal(hour.high)
    const hourLow = toDecimal(hour.low)
    if (hourHigh.greaterThan(high)) high = hourHigh
    if (hourLow.lessThan(low)) low = hourLow
    vol = vol.plus(hour.vol)
    amount = amount.plus(toDecimal(hour.vol).times(hour.close))
  }
  return { open: toDecimal(first.open), high, low, vol, amount }
}
