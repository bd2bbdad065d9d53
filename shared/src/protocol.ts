// The socket protocol spoken between browser and gateway, and between gateway and upstream feed.

import { isWellFormedToken } from './envelope'

/** DEPTH (the order book) is ours: the specification names no book stream. */
export const MARKET_TYPES = ['DETAIL', 'KLINE', 'TRADE', 'DEPTH'] as const
export const USER_TYPES = ['POSITION', 'SETTLEMENT', 'USER_STATUS', 'OWNCOIN'] as const
export const KLINE_INTERVALS = [
  '1min',
  '5min',
  '15min',
  '30min',
  '60min',
  '4hour',
  '1day',
  '1week',
  '1mon',
] as const

export type MarketType = (typeof MARKET_TYPES)[number]
export type UserType = (typeof USER_TYPES)[number]
export type StreamType = MarketType | UserType
export type KlineInterval = (typeof KLINE_INTERVALS)[number]

export const KLINE_INTERVAL_MS: Readonly<Record<KlineInterval, number>> = Object.freeze({
  '1min': 60_000,
  '5min': 300_000,
  '15min': 900_000,
  '30min': 1_800_000,
  '60min': 3_600_000,
  '4hour': 14_400_000,
  '1day': 86_400_000,
  '1week': 604_800_000,
  // calendar months vary; the sandbox buckets by 30 days
  '1mon': 2_592_000_000,
})

/** Header a gateway presents on the upstream feed socket to receive every user's events. */
export const FEED_TOKEN_HEADER = 'x-feed-token'

export const SYMBOL_PATTERN = /^[a-z0-9]{2,24}$/

/**
 * Update rates a subscriber may ask for, in ms (ours). 0 is every tick; the others get the latest
 * value of the topic at most once per period, conflated by the gateway once per topic and rate.
 */
export const STREAM_RATES = [0, 100, 250, 1000] as const
export type StreamRate = (typeof STREAM_RATES)[number]
/** Types whose frames are latest values and may therefore be sent at a chosen rate. */
export const RATED_TYPES = ['DETAIL', 'KLINE', 'DEPTH'] as const
/** Levels a side in a DEPTH snapshot. */
export const DEPTH_LEVELS = 50

// ---- client -> server ----

export type SubscriptionFrame =
  | { operation: 'subscribe' | 'unsubscribe'; type: 'DETAIL'; symbol?: string; rate?: StreamRate }
  | {
      operation: 'subscribe' | 'unsubscribe'
      type: 'KLINE'
      symbol: string
      interval: KlineInterval
      rate?: StreamRate
    }
  | { operation: 'subscribe' | 'unsubscribe'; type: 'TRADE'; symbol: string }
  | { operation: 'subscribe' | 'unsubscribe'; type: 'DEPTH'; symbol: string; rate?: StreamRate }
  | { operation: 'subscribe' | 'unsubscribe'; type: UserType }

/**
 * A heartbeat, in either form, is answered with a HEARTBEAT frame once every subscription the socket
 * sent before it has taken effect (a new topic's bus subscription confirmed, for at most a few seconds),
 * so a client that refetches its state at the answer misses no event between the two.
 */
export type ClientFrame =
  | SubscriptionFrame
  | { operation: 'auth'; satoken: string }
  | { operation: 'heartbeat' }
  | { type: 'HEARTBEAT' }

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string }

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function includes<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value)
}

/** A frame's JSON, which must be an object; never throws. */
function parseJsonObject(text: string): ParseResult<Record<string, unknown>> {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { ok: false, error: 'invalidJson' }
  }
  return isRecord(raw) ? { ok: true, value: raw } : { ok: false, error: 'frameMustBeObject' }
}

/** Validates one text frame from a browser; never throws. */
export function parseClientFrame(text: string): ParseResult<ClientFrame> {
  const parsed = parseJsonObject(text)
  if (!parsed.ok) return parsed
  const raw = parsed.value
  const { operation, type } = raw

  if (operation === undefined && type === 'HEARTBEAT') return { ok: true, value: { type: 'HEARTBEAT' } }
  if (operation === 'heartbeat') return { ok: true, value: { operation: 'heartbeat' } }
  if (operation === 'auth') {
    const { satoken } = raw
    // the REST header's rule: a token it refuses never reaches the upstream from a socket either
    if (!isWellFormedToken(satoken)) return { ok: false, error: 'invalidToken' }
    return { ok: true, value: { operation, satoken } }
  }
  if (operation !== 'subscribe' && operation !== 'unsubscribe')
    return { ok: false, error: 'unknownOperation' }

  if (includes(USER_TYPES, type)) return { ok: true, value: { operation, type } }
  if (!includes(MARKET_TYPES, type)) return { ok: false, error: 'unknownType' }

  const { symbol, rate } = raw
  if (symbol !== undefined && (typeof symbol !== 'string' || !SYMBOL_PATTERN.test(symbol))) {
    return { ok: false, error: 'invalidSymbol' }
  }
  if (rate !== undefined) {
    if (type === 'TRADE') return { ok: false, error: 'rateNotAllowed' }
    if (!(STREAM_RATES as readonly unknown[]).includes(rate)) return { ok: false, error: 'invalidRate' }
  }
  const rated = rate ? { rate: rate as StreamRate } : {}
  if (type === 'DETAIL')
    return { ok: true, value: symbol ? { operation, type, symbol, ...rated } : { operation, type, ...rated } }
  if (symbol === undefined) return { ok: false, error: 'symbolRequired' }
  if (type === 'TRADE') return { ok: true, value: { operation, type, symbol } }
  if (type === 'DEPTH') return { ok: true, value: { operation, type, symbol, ...rated } }
  const { interval } = raw
  if (!includes(KLINE_INTERVALS, interval)) return { ok: false, error: 'invalidInterval' }
  return { ok: true, value: { operation, type, symbol, interval, ...rated } }
}

// ---- server -> client ----

/** Money and quantities travel as decimal strings so no side parses them into floats. */
export interface DetailData {
  open: string
  close: string
  high: string
  low: string
  vol: string
  amount: string
  /** close vs the 24 h open, in percent */
  change: string
  /** a contract pair's mark and index prices and its funding (ours; see ContractMarkInfo) */
  markPrice?: string
  indexPrice?: string
  fundingRate?: string
  nextFundingTime?: number
}

export interface KlineData {
  /** bucket start, epoch ms */
  time: number
  open: string
  high: string
  low: string
  close: string
  vol: string
}

export interface TradeData {
  price: string
  qty: string
  side: 'buy' | 'sell'
  time: number
}

/** One price level of the book: [price, quantity], both decimal strings; quantity "0" removes it. */
export type DepthLevel = [price: string, qty: string]

/**
 * The order book of one symbol (ours). A snapshot (snapshot: true) replaces the whole book, top
 * DEPTH_LEVELS a side, bids best (highest) first, asks best (lowest) first. An update carries only
 * the levels that changed and seq = previous seq + 1; a client that sees any other seq has missed
 * one and must subscribe again for a fresh snapshot. Updates with seq at or below the snapshot's
 * are stale and ignored.
 */
export interface DepthData {
  snapshot: boolean
  seq: number
  bids: DepthLevel[]
  asks: DepthLevel[]
}

export type ServerFrame =
  | { type: 'DETAIL'; symbol: string; data: DetailData; ts: number }
  | { type: 'DEPTH'; symbol: string; data: DepthData; ts: number }
  | { type: 'KLINE'; symbol: string; interval: KlineInterval; data: KlineData; ts: number }
  | { type: 'TRADE'; symbol: string; data: TradeData; ts: number }
  | { type: UserType; userId: string; data: Record<string, unknown>; ts: number }
  | { type: 'HEARTBEAT'; ts: number }
  | { type: 'error'; code: number; msg: string }
  | ResyncFrame

/**
 * Why the gateway tells a socket its streams may have lost frames (ours): `feed`, the upstream feed
 * was lost and came back; `bus`, this instance's link to the other instances (Redis pub/sub) was
 * down and came back.
 */
export const RESYNC_REASONS = ['feed', 'bus'] as const
export type ResyncReason = (typeof RESYNC_REASONS)[number]

/**
 * Sent by the gateway (ours) after a gap in the live data that may have cost this socket frames.
 * The socket and its subscriptions stay as they are and later frames keep coming; a client reloads
 * what it cannot rebuild from later frames (REST state, DEPTH books, recent trades).
 */
export interface ResyncFrame {
  type: 'resync'
  reason: ResyncReason
  ts: number
}

export function resyncFrame(reason: ResyncReason, now: number = Date.now()): ResyncFrame {
  return { type: 'resync', reason, ts: now }
}

export const WS_ERROR = Object.freeze({
  badFrame: 4400,
  notAuthorised: 4401,
  /** a limit of the socket or its address was passed; the frame's `msg` names which (tooManySubscriptions, tooManyFrames, tooManyTopics, tooManyRequests) */
  tooMany: 4429,
  /**
   * The socket's session ended (sign-out, a new password, token expired), or an auth presented a
   * token that did: its per-user streams are gone and the client should sign out. The socket stays
   * open for market streams.
   */
  sessionEnded: 4440,
})

export const WS_CLOSE = Object.freeze({
  goingAway: 1001,
  policyViolation: 1008,
  tooLarge: 1009,
  tryAgainLater: 1013,
})

// ---- topics: the bus channel per stream ----

export const ALL_SYMBOLS = '*'

export function detailTopic(symbol: string = ALL_SYMBOLS): string {
  return `DETAIL:${symbol}`
}
export function klineTopic(symbol: string, interval: KlineInterval): string {
  return `KLINE:${symbol}:${interval}`
}
export function tradeTopic(symbol: string): string {
  return `TRADE:${symbol}`
}
export function depthTopic(symbol: string): string {
  return `DEPTH:${symbol}`
}
export function userTopic(userId: string): string {
  return `USER:${userId}`
}

/** The bus topic a subscription frame refers to; user streams need the socket's resolved user id. */
export function topicOf(frame: SubscriptionFrame, userId?: string): string | null {
  switch (frame.type) {
    case 'DETAIL':
      return detailTopic(frame.symbol)
    case 'KLINE':
      return klineTopic(frame.symbol, frame.interval)
    case 'TRADE':
      return tradeTopic(frame.symbol)
    case 'DEPTH':
      return depthTopic(frame.symbol)
    default:
      return userId ? userTopic(userId) : null
  }
}

/**
 * Latest-value topics may skip stale updates for a slow socket; TRADE and user events may not.
 * A DEPTH subscriber that skipped an update is sent the topic's snapshot instead of later deltas.
 */
export function isLatestValueTopic(topic: string): boolean {
  return topic.startsWith('DETAIL:') || topic.startsWith('KLINE:') || topic.startsWith('DEPTH:')
}

/** Frames the upstream feed sends; `error` and `resync` are the gateway's own. */
export type UpstreamFrame = Exclude<ServerFrame, { type: 'error' } | ResyncFrame>

function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 40 && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value)
}

/** A decimal as the browser receives it: a number's digits, or a decimal string as it came; else null. */
function decimalText(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value
  return isDecimalString(text) ? text : null
}

function decimalFields<K extends string>(data: unknown, keys: readonly K[]): Record<K, string> | null {
  if (!isRecord(data)) return null
  const out = {} as Record<K, string>
  for (const key of keys) {
    const text = decimalText(data[key])
    if (text === null) return null
    out[key] = text
  }
  return out
}

function parseLevels(value: unknown): DepthLevel[] | null {
  if (!Array.isArray(value) || value.length > DEPTH_LEVELS * 4) return null
  const levels: DepthLevel[] = []
  for (const level of value) {
    if (!Array.isArray(level) || level.length !== 2) return null
    const price = decimalText(level[0])
    const qty = decimalText(level[1])
    if (price === null || qty === null) return null
    // a level of two decimal strings is kept as parsed: the feed reads a book's levels hundreds of times a
    // second, and nothing else holds the parsed frame
    levels.push(price === level[0] && qty === level[1] ? (level as DepthLevel) : [price, qty])
  }
  return levels
}

function parseDepthData(data: unknown): DepthData | null {
  if (!isRecord(data)) return null
  const { snapshot, seq } = data
  if (typeof snapshot !== 'boolean' || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0)
    return null
  const bids = parseLevels(data.bids)
  const asks = parseLevels(data.asks)
  return bids && asks ? { snapshot, seq, bids, asks } : null
}

const DETAIL_KEYS = ['open', 'close', 'high', 'low', 'vol', 'amount', 'change'] as const
const CONTRACT_DETAIL_KEYS = ['markPrice', 'indexPrice', 'fundingRate'] as const

/** Adds a contract pair's mark, index and funding when the detail carries all of them whole. */
function addContractDetail(data: DetailData, body: unknown): void {
  const prices = decimalFields(body, CONTRACT_DETAIL_KEYS)
  const next = isRecord(body) ? body.nextFundingTime : undefined
  if (!prices || typeof next !== 'number' || !Number.isSafeInteger(next)) return
  data.markPrice = prices.markPrice
  data.indexPrice = prices.indexPrice
  data.fundingRate = prices.fundingRate
  data.nextFundingTime = next
}
const KLINE_KEYS = ['open', 'high', 'low', 'close', 'vol'] as const

/**
 * Validates and normalises one upstream feed message into the frame browsers receive.
 * Detail data may arrive flat or under data.tick; numbers are turned into decimal strings.
 * Each frame's data is built field by field rather than by spreading one new object into another: the
 * spreads made V8 promote to the old generation frames an idle gateway drops within a second
 * (loadtests/LIFECYCLE.md, "What an idle gateway promotes").
 */
export function parseUpstreamFrame(text: string, now: number = Date.now()): ParseResult<UpstreamFrame> {
  const parsed = parseJsonObject(text)
  if (!parsed.ok) return parsed
  const raw = parsed.value
  const ts = typeof raw.ts === 'number' && Number.isFinite(raw.ts) ? raw.ts : now
  const { type, symbol } = raw
  if (type === 'HEARTBEAT') return { ok: true, value: { type, ts } }
  if (includes(USER_TYPES, type)) {
    const userId = typeof raw.userId === 'number' ? String(raw.userId) : raw.userId
    if (typeof userId !== 'string' || !/^[\w-]{1,64}$/.test(userId))
      return { ok: false, error: 'invalidUserId' }
    if (!isRecord(raw.data)) return { ok: false, error: 'invalidData' }
    return { ok: true, value: { type, userId, data: raw.data, ts } }
  }
  if (!includes(MARKET_TYPES, type)) return { ok: false, error: 'unknownType' }
  if (typeof symbol !== 'string' || !SYMBOL_PATTERN.test(symbol)) return { ok: false, error: 'invalidSymbol' }

  if (type === 'DETAIL') {
    const body = isRecord(raw.data) && isRecord(raw.data.tick) ? raw.data.tick : raw.data
    const data: DetailData | null = decimalFields(body, DETAIL_KEYS)
    if (!data) return { ok: false, error: 'invalidData' }
    addContractDetail(data, body)
    return { ok: true, value: { type, symbol, data, ts } }
  }
  if (type === 'KLINE') {
    const { interval } = raw
    if (!includes(KLINE_INTERVALS, interval)) return { ok: false, error: 'invalidInterval' }
    const prices = decimalFields(raw.data, KLINE_KEYS)
    const time = isRecord(raw.data) ? raw.data.time : undefined
    if (!prices || typeof time !== 'number' || !Number.isFinite(time))
      return { ok: false, error: 'invalidData' }
    const { open, high, low, close, vol } = prices
    return { ok: true, value: { type, symbol, interval, data: { time, open, high, low, close, vol }, ts } }
  }
  if (type === 'DEPTH') {
    const data = parseDepthData(raw.data)
    if (!data) return { ok: false, error: 'invalidData' }
    return { ok: true, value: { type, symbol, data, ts } }
  }
  const trade = decimalFields(raw.data, ['price', 'qty'] as const)
  const side = isRecord(raw.data) ? raw.data.side : undefined
  const time = isRecord(raw.data) ? raw.data.time : undefined
  if (!trade || (side !== 'buy' && side !== 'sell') || typeof time !== 'number') {
    return { ok: false, error: 'invalidData' }
  }
  return { ok: true, value: { type, symbol, data: { price: trade.price, qty: trade.qty, side, time }, ts } }
}

/** The topics one normalised upstream frame is published on. */
export function topicsOf(frame: UpstreamFrame): string[] {
  switch (frame.type) {
    case 'DETAIL':
      return [detailTopic(frame.symbol), detailTopic(ALL_SYMBOLS)]
    case 'KLINE':
      return [klineTopic(frame.symbol, frame.interval)]
    case 'TRADE':
      return [tradeTopic(frame.symbol)]
    case 'DEPTH':
      return [depthTopic(frame.symbol)]
    case 'HEARTBEAT':
      return []
    default:
      return [userTopic(frame.userId)]
  }
}
