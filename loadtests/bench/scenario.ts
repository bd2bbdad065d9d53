/**
 * The socket scenario every system under test is driven with: which topics tick how often, which
 * topics each client wants, and the frames on the wire (DESIGN.md, socket protocol).
 */

import {
  changePercent,
  DEPTH_LEVELS,
  depthTopic,
  detailTopic,
  formatPrice,
  KLINE_INTERVAL_MS,
  klineTopic,
  mul,
  seededRandom,
  toDecimal,
  tradeTopic,
  type DepthLevel,
  type KlineInterval,
  type MarketType,
  type StreamRate,
  type UpstreamFrame,
} from '@tradegate/shared'

export type { MarketType, StreamRate }

export interface Scenario {
  symbols: number
  /** Ticks per second per symbol (DEPTH: book updates per second). */
  rates: Record<MarketType, number>
  klineInterval: string
  /** Share of clients trading btcusdt. */
  btcShare: number
  /** Other symbols each client's market list shows (DETAIL only), beside the one it trades. */
  listSymbols: number
  /** Update rate the list asks for: 0 is every tick, otherwise one of the protocol's rates in ms. */
  listRate: StreamRate
  /** Makes the client plans repeatable between systems, so each one faces the same fan-out. */
  seed: number
}

/**
 * Each client is a trading screen: DETAIL, KLINE, TRADE and DEPTH of the symbol it trades, and a
 * market list of two more symbols' DETAIL. Six subscriptions a socket.
 */
export const defaultScenario: Scenario = {
  symbols: 50,
  rates: { DETAIL: 10, TRADE: 20, KLINE: 2, DEPTH: 10 },
  klineInterval: '1min',
  btcShare: 0.3,
  listSymbols: 2,
  listRate: 0,
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
  rate?: StreamRate
}

/** The bus topic of the contract (shared/src/protocol.ts), used as the topic key everywhere in the harness. */
export function topicKey(type: MarketType, symbol: string, interval?: string): string {
  if (type === 'KLINE') return klineTopic(symbol, (interval ?? '1min') as KlineInterval)
  if (type === 'DEPTH') return depthTopic(symbol)
  return type === 'DETAIL' ? detailTopic(symbol) : tradeTopic(symbol)
}

export function topicOfSubscribe(frame: SubscribeFrame): string {
  return topicKey(frame.type, frame.symbol, frame.interval)
}

export interface ClientPlan {
  /** The symbol on the client's trading screen: every stream of it, every tick. */
  traded: string
  /** The market list's symbols, never the traded one. */
  list: string[]
  subscribeFrames: SubscribeFrame[]
  /** Topics this client wants every tick of. */
  rawTopics: string[]
  /** Topics this client wants at `scenario.listRate` (empty when the list takes every tick). */
  ratedTopics: string[]
}

export function planClients(scenario: Scenario, count: number): ClientPlan[] {
  const random = seededRandom(scenario.seed).next
  const names = symbolNames(scenario.symbols)
  const others = names.slice(1)
  const listSize = Math.min(scenario.listSymbols, names.length - 1)
  const plans: ClientPlan[] = []
  for (let i = 0; i < count; i++) {
    const traded =
      random() < scenario.btcShare || others.length === 0
        ? names[0]!
        : others[Math.floor(random() * others.length)]!
    const list = new Set<string>()
    while (list.size < listSize) {
      const symbol = names[Math.floor(random() * names.length)]!
      if (symbol !== traded) list.add(symbol)
    }
    const rated = scenario.listRate > 0
    const screen: SubscribeFrame[] = [
      { operation: 'subscribe', type: 'DETAIL', symbol: traded },
      { operation: 'subscribe', type: 'KLINE', symbol: traded, interval: scenario.klineInterval },
      { operation: 'subscribe', type: 'TRADE', symbol: traded },
      { operation: 'subscribe', type: 'DEPTH', symbol: traded },
    ].filter((frame) => scenario.rates[frame.type as MarketType] > 0) as SubscribeFrame[]
    const listFrames = [...list].map((symbol): SubscribeFrame => ({
      operation: 'subscribe',
      type: 'DETAIL',
      symbol,
      ...(rated ? { rate: scenario.listRate } : {}),
    }))
    plans.push({
      traded,
      list: [...list],
      subscribeFrames: [...screen, ...listFrames],
      rawTopics: [...screen, ...(rated ? [] : listFrames)].map(topicOfSubscribe),
      ratedTopics: rated ? listFrames.map(topicOfSubscribe) : [],
    })
  }
  return plans
}

/** Subscribers of each topic among the given plans: raw (every tick) and rated (the list's rate). */
export function subscriberCounts(plans: readonly ClientPlan[]): {
  raw: Map<string, number>
  rated: Map<string, number>
} {
  const raw = new Map<string, number>()
  const rated = new Map<string, number>()
  for (const plan of plans) {
    for (const topic of plan.rawTopics) raw.set(topic, (raw.get(topic) ?? 0) + 1)
    for (const topic of plan.ratedTopics) rated.set(topic, (rated.get(topic) ?? 0) + 1)
  }
  return { raw, rated }
}

/** Every topic the scenario publishes on, in a fixed order (the feed's counts are indexed by it). */
export function scenarioTopics(
  scenario: Scenario,
): Array<{ topic: string; type: MarketType; symbol: string }> {
  const topics: Array<{ topic: string; type: MarketType; symbol: string }> = []
  for (const symbol of symbolNames(scenario.symbols)) {
    for (const type of ['DETAIL', 'TRADE', 'KLINE', 'DEPTH'] as const) {
      if (scenario.rates[type] <= 0) continue
      topics.push({ topic: topicKey(type, symbol, scenario.klineInterval), type, symbol })
    }
  }
  return topics
}

/** The frames of the socket protocol, as the gateway sends them (shared/src/protocol.ts). */
export type ServerFrame = Extract<UpstreamFrame, { type: MarketType }>
export type DepthFrame = Extract<ServerFrame, { type: 'DEPTH' }>

type Decimal = ReturnType<typeof toDecimal>

interface SymbolState {
  price: Decimal
  open: Decimal
  high: Decimal
  low: Decimal
  vol: Decimal
}

/**
 * One symbol's book as the feed publishes it: DEPTH_LEVELS fixed price levels a side around the
 * starting price, whose quantities change. Enough for every system to carry snapshots and
 * sequenced updates of the contract's shape and size.
 */
export class SyntheticBook {
  private readonly bids: DepthLevel[]
  private readonly asks: DepthLevel[]
  seq = 0

  constructor(
    price: Decimal,
    private readonly random: () => number,
  ) {
    const step = mul(price, toDecimal('0.0001'))
    const quantity = (): string => (0.01 + random() * 5).toFixed(4)
    this.bids = Array.from({ length: DEPTH_LEVELS }, (_, i) => [
      formatPrice(price.minus(step.times(i + 1))),
      quantity(),
    ])
    this.asks = Array.from({ length: DEPTH_LEVELS }, (_, i) => [
      formatPrice(price.plus(step.times(i + 1))),
      quantity(),
    ])
  }

  snapshot(symbol: string, ts: number): DepthFrame {
    return {
      type: 'DEPTH',
      symbol,
      data: {
        snapshot: true,
        seq: this.seq,
        bids: this.bids.map((l) => [...l]),
        asks: this.asks.map((l) => [...l]),
      },
      ts,
    }
  }

  /** One to three levels change quantity; the update carries only those, seq one above the last. */
  update(symbol: string, ts: number): DepthFrame {
    this.seq += 1
    const bids: DepthLevel[] = []
    const asks: DepthLevel[] = []
    const changes = 1 + Math.floor(this.random() * 3)
    for (let i = 0; i < changes; i++) {
      const bid = this.random() < 0.5
      // the top of the book moves most
      const index = Math.min(DEPTH_LEVELS - 1, Math.floor(this.random() ** 2 * DEPTH_LEVELS))
      const level = (bid ? this.bids : this.asks)[index]!
      level[1] = (0.01 + this.random() * 5).toFixed(4)
      ;(bid ? bids : asks).push([level[0], level[1]])
    }
    return { type: 'DEPTH', symbol, data: { snapshot: false, seq: this.seq, bids, asks }, ts }
  }
}

export interface TickGenerator {
  stop(): void
  readonly published: number
  /** Multiplies every topic's rate from now on; the capacity ramp turns this up. */
  setRateScale(scale: number): void
  /** The current DEPTH snapshot of every symbol, for a feed socket that just connected. */
  depthSnapshots(): DepthFrame[]
  depthSnapshot(symbol: string): DepthFrame | undefined
}

/** Each symbol's running price, day figures and order book, from which every published frame is made. */
class SyntheticMarket {
  private readonly states = new Map<string, SymbolState>()
  readonly books = new Map<string, SyntheticBook>()

  constructor(
    names: readonly string[],
    private readonly random: () => number,
    private readonly interval: KlineInterval,
  ) {
    names.forEach((symbol, i) => {
      const price = toDecimal(symbol === 'btcusdt' ? 65_000 : (1000 / (i + 1)).toFixed(4))
      this.states.set(symbol, { price, open: price, high: price, low: price, vol: toDecimal(0) })
      this.books.set(symbol, new SyntheticBook(price, random))
    })
  }

  frame(type: MarketType, symbol: string, now: number): ServerFrame {
    if (type === 'DEPTH') return this.books.get(symbol)!.update(symbol, now)
    const state = this.states.get(symbol)!
    if (type === 'TRADE') return this.trade(symbol, state, now)
    const open = formatPrice(state.open)
    const high = formatPrice(state.high)
    const low = formatPrice(state.low)
    const close = formatPrice(state.price)
    const vol = state.vol.toFixed(4)
    if (type === 'KLINE') {
      const interval = this.interval
      const time = Math.floor(now / KLINE_INTERVAL_MS[interval]) * KLINE_INTERVAL_MS[interval]
      return { type: 'KLINE', symbol, interval, data: { time, open, high, low, close, vol }, ts: now }
    }
    const amount = mul(state.vol, state.price).toFixed(2)
    const change = changePercent(state.price, state.open)
    return { type: 'DETAIL', symbol, data: { open, close, high, low, vol, amount, change }, ts: now }
  }

  /** A trade moves the price by up to ±2 basis points and adds its quantity to the day's volume. */
  private trade(symbol: string, state: SymbolState, now: number): ServerFrame {
    const random = this.random
    state.price = mul(state.price, toDecimal((1 + (random() - 0.5) * 0.0004).toFixed(6)))
    if (state.price.greaterThan(state.high)) state.high = state.price
    if (state.price.lessThan(state.low)) state.low = state.price
    const qty = toDecimal((random() * 2).toFixed(6))
    state.vol = state.vol.plus(qty)
    return {
      type: 'TRADE',
      symbol,
      data: {
        price: formatPrice(state.price),
        qty: qty.toFixed(6),
        side: random() < 0.5 ? 'buy' : 'sell',
        time: now,
      },
      ts: now,
    }
  }
}

/**
 * Publishes every topic of the scenario at its rate, spread evenly over time (each topic gets its
 * own phase) so a 10 ms timer does not turn into one burst of 1,600 frames per second. Frames keep
 * the key order the gateway's normaliser writes, so every system sends the same bytes.
 * `publish` gets the topic's index in `scenarioTopics(scenario)` beside the topic.
 */
export function startTickGenerator(
  scenario: Scenario,
  publish: (topic: string, frame: ServerFrame, topicIndex: number) => void,
  options: { intervalMs?: number; rateScale?: number } = {},
): TickGenerator {
  const random = seededRandom(scenario.seed ^ 0x5eed).next
  const names = symbolNames(scenario.symbols)
  const market = new SyntheticMarket(names, random, scenario.klineInterval as KlineInterval)

  interface Schedule {
    topic: string
    index: number
    type: MarketType
    symbol: string
    rate: number
    /** Frames owed: grows by rate × scale × elapsed seconds, one frame is sent per whole unit. */
    credit: number
  }
  const schedules: Schedule[] = scenarioTopics(scenario).map((entry, index) => ({
    ...entry,
    index,
    rate: scenario.rates[entry.type],
    credit: random(),
  }))

  let published = 0
  let rateScale = options.rateScale ?? 1
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
        publish(schedule.topic, market.frame(schedule.type, schedule.symbol, now), schedule.index)
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
    depthSnapshots: () => names.map((symbol) => market.books.get(symbol)!.snapshot(symbol, Date.now())),
    depthSnapshot: (symbol) => market.books.get(symbol)?.snapshot(symbol, Date.now()),
  }
}

/** The scenario travels to child processes as one JSON argument. */
export function parseScenarioArg(text: string | undefined): Scenario {
  if (!text) return defaultScenario
  return { ...defaultScenario, ...(JSON.parse(text) as Partial<Scenario>) }
}
