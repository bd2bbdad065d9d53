import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { WebSocket, type RawData } from 'ws'
import {
  Backoff,
  FEED_TOKEN_HEADER,
  RECONNECT,
  parseUpstreamFrame,
  topicsOf,
  type ReconnectPolicy,
} from '@tradegate/shared'
import type { Metrics } from '../plugins/app/metrics'
import { upstreamWsUrl } from '../config'
import { busMessage, type BusMessage } from './bus-message'
import { DepthBooks, type DepthFrame } from './depth-books'

// The upstream feed client: one socket that receives every stream, each message validated,
// normalised and serialised once, with its bus header, then published on its topics.

export interface FeedOptions {
  upstreamUrl: string
  token: string
  /** no message for this long means the connection is dead even if TCP says otherwise */
  silenceMs: number
  /** `snapshot`, when given, is stored as the topics' snapshot instead of `message` (a book's update) */
  publish(topics: string[], message: BusMessage, snapshot?: BusMessage): void
  metrics: Pick<Metrics, 'feedConnected' | 'feedFrames' | 'feedReadings'>
  /**
   * The first data frame arrived on a newly opened socket; `regained` after an open feed was lost, so
   * frames may have been missed. Not at the open itself: an upstream that accepts the socket and sends
   * nothing (paused, or stalled behind it) has not recovered, and clients told to resync would take the
   * replayed snapshots for live data.
   */
  onFlowing?(regained: boolean): void
  /** a USER_STATUS event read from the feed, which may end the user's sessions */
  onUserStatus?(userId: string, data: Record<string, unknown>): void
  log: FastifyBaseLogger
  connectTimeoutMs?: number
}

const INVALID_LOG_INTERVAL_MS = 10_000
/**
 * The feed's reconnects follow the one back-off with full jitter (shared/src/reconnect.ts), from a
 * shorter first window and cap than a browser's: one socket per gateway, not a crowd, and every
 * moment without it leaves the gateway's sockets without data.
 */
const FEED_RECONNECT: Readonly<ReconnectPolicy> = Object.freeze({
  ...RECONNECT,
  baseMs: 250,
  capMs: 10_000,
  stableMs: 5000,
})
/** A book waiting for its fresh snapshot asks the upstream again this often. */
const RESYNC_RETRY_MS = 2000

function feedUrl(upstreamUrl: string): string {
  const base = upstreamWsUrl(upstreamUrl).replace(/\/+$/, '')
  return `${base}/ws/${randomUUID()}`
}

export class FeedClient {
  private socket: WebSocket | null = null
  private running = false
  private backoff = new Backoff(FEED_RECONNECT)
  /** when the current socket opened; 0 while it has not */
  private openedAt = 0
  private reconnectTimer: NodeJS.Timeout | null = null
  private silenceTimer: NodeJS.Timeout | null = null
  private lastMessageAt = 0
  /** the upstream time of the newest data frame, so the lag keeps growing while the feed is silent */
  private newestFrameTs = 0
  private invalidSinceLog = 0
  private lastInvalidLogAt = 0
  /** when an open feed was lost, until it is regained; 0 while connected or never connected */
  private lostAt = 0
  private failedAttempts = 0
  /** the socket opened and no data frame has come yet: `regained` waits for onFlowing; null once told */
  private awaitingData: { regained: boolean } | null = null
  private readonly books = new DepthBooks()
  /** symbol -> when a fresh DEPTH snapshot was last asked for */
  private readonly resyncAskedAt = new Map<string, number>()

  constructor(private readonly options: FeedOptions) {}

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.backoff = new Backoff(FEED_RECONNECT)
    this.connect()
    const { silenceMs } = this.options
    this.silenceTimer = setInterval(() => this.checkSilence(), Math.max(50, Math.floor(silenceMs / 4)))
    this.silenceTimer.unref()
  }

  async stop(): Promise<void> {
    if (this.running) this.options.log.info({ event: 'feed_stopped' }, 'upstream feed stopped')
    this.running = false
    this.newestFrameTs = 0
    this.lostAt = 0
    this.awaitingData = null
    this.failedAttempts = 0
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    if (this.silenceTimer) clearInterval(this.silenceTimer)
    this.reconnectTimer = this.silenceTimer = null
    const socket = this.socket
    this.socket = null
    this.options.metrics.feedConnected.set(0)
    if (!socket || socket.readyState === WebSocket.CLOSED) return
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.terminate()
    await closed
  }

  /**
   * Connects now instead of at the back-off's next try: the upstream just answered again, so a try
   * waiting out a long back-off (up to its cap) would only leave the market data stalled.
   */
  retryNow(): void {
    if (!this.running || !this.reconnectTimer) return
    clearTimeout(this.reconnectTimer)
    this.reconnectTimer = null
    this.options.log.info(
      { event: 'feed_retry_now', reason: 'upstream_up' },
      'upstream answers: feed tries now',
    )
    this.connect()
  }

  private connect(): void {
    const { log, token, connectTimeoutMs } = this.options
    const socket = new WebSocket(feedUrl(this.options.upstreamUrl), {
      headers: { [FEED_TOKEN_HEADER]: token },
      perMessageDeflate: false,
      handshakeTimeout: connectTimeoutMs ?? 5000,
    })
    this.socket = socket
    this.lastMessageAt = Date.now()
    let opened = false
    this.openedAt = 0
    // the upstream sends each book's snapshot on connect; nothing from the last connection carries over
    this.books.clear()
    this.resyncAskedAt.clear()
    socket.on('open', () => {
      opened = true
      this.openedAt = Date.now()
      this.options.metrics.feedConnected.set(1)
      const regained = this.lostAt !== 0
      if (regained) {
        const downMs = Date.now() - this.lostAt
        log.info(
          { event: 'feed_regained', downMs, attempts: this.failedAttempts + 1 },
          'upstream feed regained',
        )
      } else {
        log.info({ event: 'feed_connected', attempts: this.failedAttempts + 1 }, 'upstream feed connected')
      }
      this.failedAttempts = 0
      // lostAt stays until data flows: a socket that closes before then has recovered nothing
      this.awaitingData = { regained }
    })
    socket.on('message', (data, isBinary) => this.receive(data, isBinary))
    socket.on('error', (error) =>
      log.warn({ event: 'feed_error', err: error.message }, 'upstream feed error'),
    )
    socket.on('close', (code, reason) => {
      if (this.socket !== socket) return
      this.socket = null
      this.options.metrics.feedConnected.set(0)
      if (!this.running) return
      const delay = this.backoff.next(opened ? Date.now() - this.openedAt : 0, code)
      // a socket that opened but never brought data is a failed attempt: the gap goes on from the first loss
      const silent = this.awaitingData !== null
      this.awaitingData = null
      if (opened && !silent) {
        this.lostAt = Date.now()
        log.warn(
          { event: 'feed_lost', code, reason: reason.toString(), retryInMs: delay },
          'upstream feed lost',
        )
      } else {
        this.failedAttempts++
        log.warn(
          { event: 'feed_connect_failed', attempts: this.failedAttempts, retryInMs: delay },
          'upstream feed connect failed',
        )
      }
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null
        if (this.running) this.connect()
      }, delay)
    })
  }

  private checkSilence(): void {
    const now = Date.now()
    if (this.newestFrameTs && now - this.newestFrameTs > this.options.silenceMs / 4)
      this.options.metrics.feedReadings.lagSeconds = (now - this.newestFrameTs) / 1000
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return
    if (Date.now() - this.lastMessageAt <= this.options.silenceMs) return
    this.options.log.warn({ event: 'feed_silent', silenceMs: this.options.silenceMs }, 'upstream feed silent')
    this.socket.terminate()
  }

  private receive(data: RawData, isBinary: boolean): void {
    const now = Date.now()
    this.lastMessageAt = now
    if (isBinary) return this.invalid('binary')
    const text = Array.isArray(data) ? Buffer.concat(data).toString() : data.toString()
    const parsed = parseUpstreamFrame(text, now)
    if (!parsed.ok) return this.invalid(parsed.error)
    const frame = parsed.value
    if (frame.type === 'HEARTBEAT') return
    const { metrics } = this.options
    metrics.feedFrames.inc()
    metrics.feedReadings.lagSeconds = Math.max(0, now - frame.ts) / 1000
    metrics.feedReadings.lastFrameAt = now / 1000
    this.newestFrameTs = Math.max(this.newestFrameTs, frame.ts)
    if (frame.type === 'DEPTH') this.receiveDepth(frame, now)
    else {
      if (frame.type === 'USER_STATUS') this.options.onUserStatus?.(frame.userId, frame.data)
      const topics = topicsOf(frame)
      this.options.publish(topics, busMessage(topics[0]!, frame))
    }
    const awaiting = this.awaitingData
    if (awaiting) {
      this.awaitingData = null
      this.lostAt = 0
      this.options.onFlowing?.(awaiting.regained)
    }
  }

  private receiveDepth(frame: DepthFrame, now: number): void {
    const outcome = this.books.accept(frame)
    if (outcome.kind === 'publish') {
      this.resyncAskedAt.delete(frame.symbol)
      this.options.publish(topicsOf(frame), outcome.message, outcome.snapshot)
      return
    }
    if (outcome.kind === 'stale') return
    // a gap: the book is dropped and its subscribers keep the last book until the fresh snapshot
    const askedAt = this.resyncAskedAt.get(frame.symbol)
    if (askedAt !== undefined && now - askedAt < RESYNC_RETRY_MS) return
    this.resyncAskedAt.set(frame.symbol, now)
    this.options.log.info({ event: 'depth_resync', symbol: frame.symbol, seq: frame.data.seq }, 'depth gap')
    // the upstream answers a subscribe with the book's snapshot, as it does for a browser
    if (this.socket?.readyState !== WebSocket.OPEN) return
    this.socket.send(JSON.stringify({ operation: 'subscribe', type: 'DEPTH', symbol: frame.symbol }))
  }

  private invalid(reason: string): void {
    this.invalidSinceLog++
    const now = Date.now()
    if (now - this.lastInvalidLogAt < INVALID_LOG_INTERVAL_MS) return
    this.options.log.warn(
      { event: 'feed_invalid', reason, count: this.invalidSinceLog },
      'upstream feed frames rejected',
    )
    this.lastInvalidLogAt = now
    this.invalidSinceLog = 0
  }
}
