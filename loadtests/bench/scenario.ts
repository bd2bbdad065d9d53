/**
 * The socket scenario every system under test is driven with: which topics tick how often, which
 * topics each client wants, and the frames on the wire (DESIGN.md, socket protocol).
 */

export type MarketType = 'DETAIL' | 'KLINE' | 'TRADE'

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
  rates: { DETAIL: 10, TRADE: 20, KLINE: 2 },
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

/** Bus channel names from DESIGN.md, used as the topic key everywhere in the harness. */
export function topicKey(type: MarketType, symbol: string, interval?: string): string {
  return type === 'KLINE' ? `KLINE:${symbol}:${interval ?? '1min'}` : `${type}:${symbol}`
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

export interface ServerFrame {
  type: MarketType
  symbol: string
  interval?: string
  data: Record<string, number | string>
  /** Publish time, epoch ms; kept last so a client can find it from the end of the text. */
  ts: number
}

interface SymbolState {
  price: number
  open: number
  high: number
  low: number
  vol: number
  count: number
}

function formatPrice(value: number): string {
  return value >= 1 ? value.toFixed(2) : value.toPrecision(6)
}

/**
 * Publishes every topic of the scenario at its rate, spread evenly over time (each topic gets its
 * own phase) so a 10 ms timer does not turn into one burst of 1,600 frames per second.
 */
export function startTickGenerator(
  scenario: Scenario,
  publish: (topic: string, frame: ServerFrame) => void,
  options: { intervalMs?: number } = {},
): { stop(): void; readonly published: number } {
  const random = seededRandom(scenario.seed ^ 0x5eed)
  const names = symbolNames(scenario.symbols)
  const states = new Map<string, SymbolState>()
  names.forEach((symbol, i) => {
    const price = symbol === 'btcusdt' ? 65_000 : 10 / (i + 1) + random() * 100
    states.set(symbol, { price, open: price, high: price, low: price, vol: 0, count: 0 })
  })

  interface Schedule {
    topic: string
    type: MarketType
    symbol: string
    rate: number
    phase: number
    sent: number
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
        phase: random(),
        sent: 0,
      })
    }
  }

  let published = 0
  let tradeId = 1
  const frameFor = (schedule: Schedule, now: number): ServerFrame => {
    const state = states.get(schedule.symbol)!
    if (schedule.type === 'TRADE') {
      state.price *= 1 + (random() - 0.5) * 0.0004
      state.high = Math.max(state.high, state.price)
      state.low = Math.min(state.low, state.price)
      const amount = random() * 2
      state.vol += amount
      state.count += 1
      return {
        type: 'TRADE',
        symbol: schedule.symbol,
        data: {
          id: tradeId++,
          price: formatPrice(state.price),
          amount: amount.toFixed(6),
          direction: random() < 0.5 ? 'buy' : 'sell',
          time: now,
        },
        ts: now,
      }
    }
    const candle = {
      open: formatPrice(state.open),
      close: formatPrice(state.price),
      high: formatPrice(state.high),
      low: formatPrice(state.low),
      vol: state.vol.toFixed(4),
      amount: (state.vol * state.price).toFixed(2),
      count: state.count,
    }
    if (schedule.type === 'KLINE') {
      return {
        type: 'KLINE',
        symbol: schedule.symbol,
        interval: scenario.klineInterval,
        data: { id: Math.floor(now / 60_000) * 60, ...candle },
        ts: now,
      }
    }
    const rose = ((state.price - state.open) / state.open) * 100
    return { type: 'DETAIL', symbol: schedule.symbol, data: { ...candle, rose: rose.toFixed(2) }, ts: now }
  }

  const startedAt = Date.now()
  const timer = setInterval(() => {
    const now = Date.now()
    const elapsed = (now - startedAt) / 1000
    for (const schedule of schedules) {
      const due = Math.floor(elapsed * schedule.rate + schedule.phase)
      while (schedule.sent < due) {
        schedule.sent += 1
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
  }
}

/** The scenario travels to child processes as one JSON argument. */
export function parseScenarioArg(text: string | undefined): Scenario {
  if (!text) return defaultScenario
  return { ...defaultScenario, ...(JSON.parse(text) as Partial<Scenario>) }
}
