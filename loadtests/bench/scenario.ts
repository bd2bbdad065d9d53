/**
 * The socket scenario every system under test is driven with: which topics tick how often, which
 * topics each client wants, and the frames on the wire (DESIGN.md, socket protocol).
 */

import {
  changePercent,
  detailTopic,
  formatPrice,
  KLINE_INTERVAL_MS,
  klineTopic,
  mul,
  toDecimal,
  tradeTopic,
  type KlineInterval,
  type MarketType,
  type UpstreamFrame,
} from '@tradegate/shared'

export type { MarketType }

export interface Scenario {
  symbols: number
  /** Ticks per second per symbol. */
  rates: Record<MarketType, number>
  klineInterval: string
  /** Share of clients whose symbols include btcusdt. */
  btcShare: number
  minSymbolsPerClient: number
  maxSymbolsPerClient: number
  /** Makes the client plans repeatable between systems, so each one faces the same fan-out. */
  seed: number
}

export const defaultScenario: Scenario = {
  symbols: 50,
  rates: { DETAIL: 10, TRADE: 20, KLINE: 2, DEPTH: 0 },
  klineInterval: '1min',
  btcShare: 0.3,
  minSymbolsPerClient: 1,
  maxSymbolsPerClient: 3,
  seed: 8,
}

const KNOWN_SYMBOLS = [
  'btcusdt',
  'ethusdt',
  'solusdt',
  'xrpusdt',
  'dogeusdt',
  'adausdt',
  'trxusdt',
  'linkusdt',
]

export function symbolNames(count: number): string[] {
  const names = KNOWN_SYMBOLS.slice(0, count)
  for (let i = names.length; i < count; i++) names.push(`coin${String(i).padStart(3, '0')}usdt`)
  return names
}

export interface SubscribeFrame {
  operation: 'subscribe' | 'unsubscribe'
  type: MarketType
  symbol: string
  interval?: string
}

/** The bus topic of the contract (shared/src/protocol.ts), used as the topic key everywhere in the harness. */
export function topicKey(type: MarketType, symbol: string, interval?: string): string {
  if (type === 'KLINE') return klineTopic(symbol, (interval ?? '1min') as KlineInterval)
  return type === 'DETAIL' ? detailTopic(symbol) : tradeTopic(symbol)
}

export function topicOfSubscribe(frame: SubscribeFrame): string {
  return topicKey(frame.type, frame.symbol, frame.interval)
}

export interface ClientPlan {
  symbols: string[]
  subscribeFrames: SubscribeFrame[]
  /** Frames per second this client should receive if the server keeps up. */
  expectedPerSecond: number
}

/** Small seeded PRNG (mulberry32): the same seed gives every system the same client mix. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function planClients(scenario: Scenario, count: number): ClientPlan[] {
  const random = seededRandom(scenario.seed)
  const names = symbolNames(scenario.symbols)
  const others = names.slice(1)
  const perSymbol = scenario.rates.DETAIL + scenario.rates.KLINE + scenario.rates.TRADE
  const plans: ClientPlan[] = []
  for (let i = 0; i < count; i++) {
    const span = scenario.maxSymbolsPerClient - scenario.minSymbolsPerClient + 1
    const wanted = Math.min(names.length, scenario.minSymbolsPerClient + Math.floor(random() * span))
    const symbols = new Set<string>()
    if (random() < scenario.btcShare || others.length === 0) symbols.add(names[0]!)
    while (symbols.size < wanted) symbols.add(others[Math.floor(random() * others.length)]!)
    const list = [...symbols]
    plans.push({
      symbols: list,
      subscribeFrames: list.flatMap((symbol): SubscribeFrame[] => [
        { operation: 'subscribe', type: 'DETAIL', symbol },
        { operation: 'subscribe', type: 'KLINE', symbol, interval: scenario.klineInterval },
        { operation: 'subscribe', type: 'TRADE', symbol },
      ]),
      expectedPerSecond: list.length * perSymbol,
    })
  }
  return plans
}

/** The frames of the socket protocol, as the gateway sends them (shared/src/protocol.ts). */
export type ServerFrame = Extract<UpstreamFrame, { type: MarketType }>

type Decimal = ReturnType<typeof toDecimal>

interface SymbolState {
  price: Decimal
  open: Decimal
  high: Decimal
  low: Decimal
  vol: Decimal
}

export interface TickGenerator {
  stop(): void
  readonly published: number
  /** Multiplies every topic's rate from now on; the saturation ramp turns this up. */
  setRateScale(scale: number): void
}

/**
 * Publishes every topic of the scenario at its rate, spread evenly over time (each topic gets its
 * own phase) so a 10 ms timer does not turn into one burst of 1,600 frames per second. Frames keep
 * the key order the gateway's normaliser writes, so every system sends the same bytes.
 */
export function startTickGenerator(
  scenario: Scenario,
  publish: (topic: string, frame: ServerFrame) => void,
  options: { intervalMs?: number; rateScale?: number } = {},
): TickGenerator {
  const random = seededRandom(scenario.seed ^ 0x5eed)
  const names = symbolNames(scenario.symbols)
  const states = new Map<string, SymbolState>()
  names.forEach((symbol, i) => {
    const price = toDecimal(symbol === 'btcusdt' ? 65_000 : (1000 / (i + 1)).toFixed(4))
    states.set(symbol, { price, open: price, high: price, low: price, vol: toDecimal(0) })
  })

  interface Schedule {
    topic: string
    type: MarketType
    symbol: string
    rate: number
    /** Frames owed: grows by rate × scale × elapsed seconds, one frame is sent per whole unit. */
    credit: number
  }
  const schedules: Schedule[] = []
  for (const symbol of names) {
    for (const type of ['DETAIL', 'TRADE', 'KLINE'] as const) {
      const rate = scenario.rates[type]
      if (rate <= 0) continue
      schedules.push({
        topic: topicKey(type, symbol, scenario.klineInterval),
        type,
        symbol,
        rate,
        credit: random(),
      })
    }
  }

  let published = 0
  let rateScale = options.rateScale ?? 1
  const interval = scenario.klineInterval as KlineInterval
  const frameFor = (schedule: Schedule, now: number): ServerFrame => {
    const state = states.get(schedule.symbol)!
    if (schedule.type === 'TRADE') {
      // Moves of up to ±2 basis points per trade.
      state.price = mul(state.price, toDecimal((1 + (random() - 0.5) * 0.0004).toFixed(6)))
      if (state.price.greaterThan(state.high)) state.high = state.price
      if (state.price.lessThan(state.low)) state.low = state.price
      const qty = toDecimal((random() * 2).toFixed(6))
      state.vol = state.vol.plus(qty)
      return {
        type: 'TRADE',
        symbol: schedule.symbol,
        data: {
          price: formatPrice(state.price),
          qty: qty.toFixed(6),
          side: random() < 0.5 ? 'buy' : 'sell',
          time: now,
        },
        ts: now,
      }
    }
    const open = formatPrice(state.open)
    const high = formatPrice(state.high)
    const low = formatPrice(state.low)
    const close = formatPrice(state.price)
    const vol = state.vol.toFixed(4)
    if (schedule.type === 'KLINE') {
      const time = Math.floor(now / KLINE_INTERVAL_MS[interval]) * KLINE_INTERVAL_MS[interval]
      return {
        type: 'KLINE',
        symbol: schedule.symbol,
        interval,
        data: { time, open, high, low, close, vol },
        ts: now,
      }
    }
    const amount = mul(state.vol, state.price).toFixed(2)
    const change = changePercent(state.price, state.open)
    return {
      type: 'DETAIL',
      symbol: schedule.symbol,
      data: { open, close, high, low, vol, amount, change },
      ts: now,
    }
  }

  let last = performance.now()
  const timer = setInterval(() => {
    const nowMs = performance.now()
    const seconds = (nowMs - last) / 1000
    last = nowMs
    const now = Date.now()
    for (const schedule of schedules) {
      schedule.credit += schedule.rate * rateScale * seconds
      while (schedule.credit >= 1) {
        schedule.credit -= 1
        published += 1
        publish(schedule.topic, frameFor(schedule, now))
      }
    }
  }, options.intervalMs ?? 10)

  return {
    stop: () => clearInterval(timer),
    get published() {
      return published
    },
    setRateScale(scale) {
      rateScale = scale
    },
  }
}

/** The scenario travels to child processes as one JSON argument. */
export function parseScenarioArg(text: string | undefined): Scenario {
  if (!text) return defaultScenario
  return { ...defaultScenario, ...(JSON.parse(text) as Partial<Scenario>) }
}
