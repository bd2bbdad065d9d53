import {
  Backoff,
  RECONNECT,
  USER_TYPES,
  WS_CLOSE,
  WS_ERROR,
  topicOf,
  topicsOf,
  type ClientFrame,
  type ReconnectPolicy,
  type ServerFrame,
  type SubscriptionFrame,
  type UserType,
} from '@tradegate/shared'
import { keepInSync } from '../resync'
import { serverClock } from '../server-clock'
import { currentToken, session, signOut } from '../session'

// The one live-data client: a single socket with reference-counted subscriptions, its reconnects,
// and the feed's status. React reads it through use-live-stream.ts and the hooks beside it.

/** The part of the browser WebSocket this client uses, so tests can hand in the `ws` package. */
export interface SocketLike {
  readonly readyState: number
  onopen: ((event: unknown) => void) | null
  onclose: ((event: { code?: number }) => void) | null
  onerror: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  send(text: string): void
  close(): void
}

export interface LiveClientOptions {
  url: () => string
  /** the back-off after a lost socket (shared/src/reconnect.ts); tests shorten it */
  reconnect?: Partial<ReconnectPolicy>
  /** the jitter's source, 0 ≤ value < 1 */
  random?: () => number
  createSocket?: (url: string) => SocketLike
  /** how long a shown ticker may stay silent before the feed counts as delayed */
  staleMs?: number
  /** the gateway ended the signed-in session (signed out elsewhere, new password, token expired) */
  onSessionEnded?: () => void
}

/**
 * Where the socket is: open; connecting (a socket is being opened); waiting until retryAt (epoch ms)
 * for retry number `retry` since the socket was last open, `busy` when the gateway asked to wait.
 */
export type Connection =
  | { state: 'open' }
  | { state: 'connecting' }
  | { state: 'waiting'; retryAt: number; retry: number; busy: boolean }

export type FrameListener = (frame: ServerFrame) => void

/**
 * What a trader should know about the prices on screen: live while every ticker the screen shows has
 * had a fresh frame (stamped by the exchange within staleMs) in the last staleMs; delayed when one
 * has not; reconnecting while the socket is not open, or open and no ticker heard on it yet.
 * A frame carrying an old stamp (a topic's snapshot replayed on a resubscribe) is not fresh: only
 * data the exchange is sending now makes the feed live.
 */
export type FeedStatus = 'live' | 'delayed' | 'reconnecting'

/** Five seconds without a ticker frame: long past any normal tick, short enough to matter. */
export const FEED_STALE_MS = 5000

const OPEN = 1
/** Three sockets in a row that never opened: a network that is gone, not one slow handshake. */
const OFFLINE_AFTER_FAILED_ATTEMPTS = 3

export function isUserType(type: string): type is UserType {
  return (USER_TYPES as readonly string[]).includes(type)
}

/** One key per stream: market streams by their bus topic, per-user streams by their type. */
export function subscriptionKey(frame: SubscriptionFrame): string {
  return topicOf(frame) ?? frame.type
}

function keysOfServerFrame(frame: ServerFrame): string[] {
  if (frame.type === 'error' || frame.type === 'resync') return []
  // the gateway has already picked this socket's user, so user events are keyed by type alone
  return isUserType(frame.type) ? [frame.type] : topicsOf(frame)
}

/** Whether `frame` asks for its stream more often than `than` does: every tick (no rate) is the fastest. */
function fasterThan(frame: SubscriptionFrame, than: SubscriptionFrame): boolean {
  const rate = 'rate' in frame ? (frame.rate ?? 0) : 0
  const current = 'rate' in than ? (than.rate ?? 0) : 0
  return current !== 0 && rate < current
}

export class LiveClient {
  private socket: SocketLike | null = null
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null
  private disposed = false
  private token = ''
  /** frames other than subscriptions, sent in order once the socket opens */
  private readonly queue: ClientFrame[] = []
  /** since: when the stream was subscribed; a silent stream counts from then */
  private readonly subscriptions = new Map<
    string,
    { frame: SubscriptionFrame; count: number; since: number }
  >()
  private readonly listeners = new Map<string, Set<FrameListener>>()
  private readonly lastFrameAt = new Map<string, number>()
  /** the last fresh ticker frame a listener took, of any symbol: whether tickers flow on this socket */
  private tickerHeardAt = 0
  private readonly statusListeners = new Set<() => void>()
  private openedAt = 0
  /** sockets in a row that closed without ever opening */
  private failedAttempts = 0
  /** how many times a socket has opened */
  private opens = 0
  /** when the pending reconnect fires; 0 while none is pending */
  private retryAt = 0
  /** reconnects scheduled since the socket was last open */
  private retries = 0
  /** an open socket has been lost since: the next open must resync what the gap may have missed */
  private lostOpenSocket = false
  /** heartbeats sent on this socket, and answered: the gateway answers them in order */
  private heartbeatsSent = 0
  private heartbeatsAnswered = 0
  /**
   * The heartbeat whose answer tells the resync listeners, null while none is owed: until the gateway
   * confirms the subscriptions sent so far, an event on a stream just asked for reaches neither the
   * socket nor a refetch made now. Set anew after each open.
   */
  private resyncAtAnswer: number | null = null
  /** the gateway's error frame asked this socket to stay away a while */
  private toldToWait = false
  private readonly resyncListeners = new Set<() => void>()
  private readonly backoff: Backoff
  private readonly staleMs: number
  private readonly createSocket: (url: string) => SocketLike

  constructor(private readonly options: LiveClientOptions) {
    this.backoff = new Backoff({ ...RECONNECT, ...options.reconnect }, options.random)
    this.staleMs = options.staleMs ?? FEED_STALE_MS
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike)
  }

  get isOpen(): boolean {
    return this.socket?.readyState === OPEN
  }

  /** True after several sockets in a row failed to open: the gateway is out of reach from here. */
  get offline(): boolean {
    return this.failedAttempts >= OFFLINE_AFTER_FAILED_ATTEMPTS
  }

  /** Sockets opened so far. */
  get openCount(): number {
    return this.opens
  }

  /** What the socket is doing, for the feed badge. */
  connection(): Connection {
    if (this.isOpen) return { state: 'open' }
    if (this.reconnectTimer) {
      return { state: 'waiting', retryAt: this.retryAt, retry: this.retries, busy: this.backoff.asksToWait }
    }
    return { state: 'connecting' }
  }

  /**
   * Called after every gap in what this client may have heard: a reconnect, a stream the gateway
   * says lost frames, a book sequence gap, a return from the background, and the time before a
   * signed-in page's per-user streams took effect (its first open, a sign-in, a new per-user stream).
   * Each call comes once the gateway has taken the subscriptions sent before it, so listeners that
   * refetch their REST state then miss nothing between the two; the returned function stops it.
   */
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener)
    return () => this.resyncListeners.delete(listener)
  }

  /** A stream found a gap in itself (a book missed an update): the user's state is fetched again. */
  reportGap(): void {
    this.resyncOnceLive()
  }

  /** Asks every stream afresh and tells the resync listeners: nothing heard since can be trusted whole. */
  resyncAll(): void {
    for (const { frame } of this.subscriptions.values()) {
      this.sendNow({ ...frame, operation: 'unsubscribe' })
      this.sendNow({ ...frame, operation: 'subscribe' })
    }
    this.resyncOnceLive()
  }

  /**
   * Tries at once instead of waiting out the back-off (the browser is back online, the tab visible
   * again), unless the gateway asked to wait.
   */
  connectNow(): void {
    if (!this.reconnectTimer || this.backoff.asksToWait || this.disposed) return
    clearTimeout(this.reconnectTimer)
    this.reconnectTimer = null
    this.connect()
  }

  /**
   * The feed's state for the tickers subscribed now (the ones the screen shows). A ticker not heard
   * yet has staleMs from its subscription (or the socket's open) to start; meanwhile the feed reads
   * live if tickers are flowing on this socket (a screen opened beside them: its first frame is on its
   * way) and connecting if none has been heard since the socket opened (a page load).
   */
  feedStatus(now: number = Date.now()): FeedStatus {
    if (!this.isOpen) return 'reconnecting'
    for (const [key, { frame, since }] of this.subscriptions) {
      if (frame.type !== 'DETAIL') continue
      const heard = this.lastFrameAt.get(key)
      if (heard !== undefined && now - heard <= this.staleMs) continue
      if (heard === undefined && now - Math.max(since, this.openedAt) <= this.staleMs) continue
      return 'delayed'
    }
    const flowing = this.tickerHeardAt >= this.openedAt && now - this.tickerHeardAt <= this.staleMs
    return flowing ? 'live' : 'reconnecting'
  }

  /** A frame the exchange stamped within staleMs of now (by its clock): data flowing, not a replay. */
  private isFresh(frame: ServerFrame, now: number): boolean {
    if (!('ts' in frame) || typeof frame.ts !== 'number') return true
    return serverClock.now(now) - frame.ts <= this.staleMs
  }

  /**
   * Called whenever the socket opens, closes or waits to retry, and whenever a ticker starts to flow
   * (heard for the first time, or again after a silence): each can change the feed's status, and a
   * badge that learnt of the first frame only at its next check would say "connecting" over live
   * prices. The returned function stops it.
   */
  onStatusChange(listener: () => void): () => void {
    this.statusListeners.add(listener)
    return () => this.statusListeners.delete(listener)
  }

  /** Asks for a stream afresh (unsubscribe, subscribe), e.g. for a new book snapshot after a gap. */
  resubscribe(frame: SubscriptionFrame): void {
    if (!this.subscriptions.has(subscriptionKey(frame))) return
    this.sendNow({ ...frame, operation: 'unsubscribe' })
    this.sendNow({ ...frame, operation: 'subscribe' })
  }

  /** Sends the subscribe frame only for the first listener of a stream; the returned function undoes it. */
  subscribe(frame: SubscriptionFrame, listener: FrameListener): () => void {
    const key = subscriptionKey(frame)
    let listeners = this.listeners.get(key)
    if (!listeners) this.listeners.set(key, (listeners = new Set()))
    listeners.add(listener)
    const entry = this.subscriptions.get(key)
    if (entry) {
      entry.count++
      // one subscription per topic on a socket: the fastest rate any listener asked for serves them
      // all (a price list at 1000 ms must not slow the trade header's price on the same pair). It
      // stays that fast until the topic is left, which costs frames, never a listener's freshness.
      if (fasterThan(frame, entry.frame)) {
        entry.frame = frame
        this.sendNow({ ...frame, operation: 'subscribe' })
      }
    } else {
      this.subscriptions.set(key, { frame, count: 1, since: Date.now() })
      this.sendNow({ ...frame, operation: 'subscribe' })
      // what the page fetched of the user's state before this stream takes effect may miss an event
      if (this.token && isUserType(frame.type) && this.isOpen) this.resyncOnceLive()
    }
    this.ensureSocket()
    let active = true
    return () => {
      if (!active) return
      active = false
      listeners.delete(listener)
      if (listeners.size === 0) this.listeners.delete(key)
      const current = this.subscriptions.get(key)
      if (current && --current.count === 0) {
        this.subscriptions.delete(key)
        this.lastFrameAt.delete(key)
        this.sendNow({ ...frame, operation: 'unsubscribe' })
      }
    }
  }

  /** Sends at once when open; otherwise queued and sent in order when the socket opens. */
  send(frame: ClientFrame): void {
    if (this.isOpen) this.sendNow(frame)
    else this.queue.push(frame)
    this.ensureSocket()
  }

  /** The token per-user events need; an empty token ends them by starting a fresh, anonymous socket. */
  setToken(token: string): void {
    if (token === this.token) return
    const hadToken = this.token !== ''
    this.token = token
    if (!token) {
      if (hadToken) this.restart()
      return
    }
    if (!this.isOpen) return
    this.sendNow({ operation: 'auth', satoken: token })
    // per-user subscriptions sent before the auth were refused, so they are sent again
    for (const { frame } of this.subscriptions.values()) {
      if (isUserType(frame.type)) this.sendNow({ ...frame, operation: 'subscribe' })
    }
    if (this.hasUserStreams()) this.resyncOnceLive()
  }

  /** Drops the current socket at once; a new one opens after the reconnect delay. */
  restart(): void {
    const socket = this.socket
    const openForMs = this.isOpen ? Date.now() - this.openedAt : 0
    this.socket = null
    if (socket) {
      this.detach(socket)
      socket.close()
      this.onLost(openForMs, undefined)
    }
  }

  dispose(): void {
    this.disposed = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    this.reconnectTimer = null
    const socket = this.socket
    this.socket = null
    if (socket) {
      this.detach(socket)
      socket.close()
    }
  }

  private sendNow(frame: ClientFrame): void {
    // subscriptions are not queued: every open socket is sent the whole current set
    if (!this.isOpen) return
    if ('operation' in frame && frame.operation === 'heartbeat') this.heartbeatsSent++
    this.socket?.send(JSON.stringify(frame))
  }

  private hasUserStreams(): boolean {
    if (!this.token) return false
    for (const { frame } of this.subscriptions.values()) if (isUserType(frame.type)) return true
    return false
  }

  /**
   * Tells the resync listeners once the gateway has taken every frame sent so far: it answers a
   * heartbeat only after the subscriptions before it take effect, so a refetch made then and the
   * socket's events leave no gap between them. A socket lost meanwhile asks again on the next open.
   */
  private resyncOnceLive(): void {
    if (!this.isOpen) {
      // owed to the next open, which asks after its subscriptions
      this.resyncAtAnswer = Infinity
      return
    }
    this.sendNow({ operation: 'heartbeat' })
    this.resyncAtAnswer = this.heartbeatsSent
  }

  private ensureSocket(): void {
    if (this.socket || this.reconnectTimer || this.disposed) return
    this.connect()
  }

  private connect(): void {
    this.reconnectTimer = null
    if (this.disposed) return
    let socket: SocketLike
    try {
      socket = this.createSocket(this.options.url())
    } catch {
      this.scheduleReconnect(0, undefined)
      return
    }
    this.socket = socket
    // the badge says "reconnecting…" instead of the wait that just ended
    this.notifyStatus()
    socket.onmessage = (event) => this.onMessage(event.data)
    socket.onerror = () => undefined
    let opened = false
    this.toldToWait = false
    socket.onopen = () => {
      opened = true
      this.onOpen(socket)
    }
    socket.onclose = (event) => {
      if (this.socket !== socket) return
      this.socket = null
      this.failedAttempts = opened ? 0 : this.failedAttempts + 1
      // an error frame that said to stay away counts like the close code that says so
      const asked = this.toldToWait ? WS_CLOSE.tryAgainLater : event?.code
      this.onLost(opened ? Date.now() - this.openedAt : 0, asked)
    }
  }

  /** A socket went away: count it for the back-off, schedule the next try and tell the badge. */
  private onLost(openForMs: number, closeCode: number | undefined): void {
    if (openForMs > 0) this.lostOpenSocket = true
    this.scheduleReconnect(openForMs, closeCode)
    this.notifyStatus()
  }

  private notifyResync(): void {
    for (const listener of [...this.resyncListeners]) listener()
  }

  private notifyStatus(): void {
    for (const listener of [...this.statusListeners]) listener()
  }

  private onOpen(socket: SocketLike): void {
    if (this.socket !== socket) return
    this.openedAt = Date.now()
    this.failedAttempts = 0
    this.opens++
    this.retries = 0
    this.heartbeatsSent = 0
    this.heartbeatsAnswered = 0
    const frames: ClientFrame[] = []
    if (this.token) frames.push({ operation: 'auth', satoken: this.token })
    for (const { frame } of this.subscriptions.values()) frames.push({ ...frame, operation: 'subscribe' })
    frames.push(...this.queue.splice(0))
    for (const frame of frames) this.sendNow(frame)
    this.notifyStatus()
    // after a gap, or at the first open of a signed-in page, whose first fetches ran before its streams
    if (this.lostOpenSocket || this.resyncAtAnswer !== null || this.hasUserStreams()) {
      this.lostOpenSocket = false
      this.resyncOnceLive()
    }
  }

  private onMessage(data: unknown): void {
    if (typeof data !== 'string') data = String(data)
    let frame: ServerFrame
    try {
      frame = JSON.parse(data as string) as ServerFrame
    } catch {
      return
    }
    if (!frame || typeof frame !== 'object' || typeof frame.type !== 'string') return
    if (frame.type === 'error') {
      if (frame.code === WS_ERROR.sessionEnded && this.token) this.options.onSessionEnded?.()
      if (frame.code === WS_ERROR.tooMany) this.toldToWait = true
      return
    }
    // the gateway says this socket may have lost frames: the same as a reconnect, without one
    if (frame.type === 'resync') return this.resyncAll()
    if (frame.type === 'HEARTBEAT' && ++this.heartbeatsAnswered >= (this.resyncAtAnswer ?? Infinity)) {
      this.resyncAtAnswer = null
      this.notifyResync()
    }
    const now = Date.now()
    // the exchange stamps its frames; heartbeats are the gateway's own and carry its clock instead
    if (frame.type !== 'HEARTBEAT' && 'ts' in frame && typeof frame.ts === 'number')
      serverClock.note(frame.ts, now)
    const fresh = this.isFresh(frame, now)
    let startedFlowing = false
    for (const key of keysOfServerFrame(frame)) {
      const listeners = this.listeners.get(key)
      if (!listeners) continue
      if (fresh) {
        const heard = this.lastFrameAt.get(key)
        this.lastFrameAt.set(key, now)
        if (frame.type === 'DETAIL') {
          if (heard === undefined || now - heard > this.staleMs) startedFlowing = true
          this.tickerHeardAt = now
        }
      }
      for (const listener of [...listeners]) listener(frame)
    }
    if (startedFlowing) this.notifyStatus()
  }

  private scheduleReconnect(openForMs: number, closeCode: number | undefined): void {
    if (this.disposed || this.reconnectTimer) return
    const delay = this.backoff.next(openForMs, closeCode)
    this.retries++
    this.retryAt = Date.now() + delay
    this.reconnectTimer = setTimeout(() => this.connect(), delay)
  }

  private detach(socket: SocketLike): void {
    socket.onopen = null
    socket.onmessage = null
    socket.onclose = null
    socket.onerror = null
  }
}

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  // randomUUID needs a secure context; plain http on a LAN address is not one
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** `/ws/<uuid>` on this host; wss unless the page itself is on plain http. */
function liveUrl(): string {
  const scheme = window.location.protocol === 'http:' ? 'ws' : 'wss'
  return `${scheme}://${window.location.host}/ws/${randomId()}`
}

let sharedClient: LiveClient | null = null

/** Whether the app's live socket has been failing to open; false while no socket was ever needed. */
export function socketSaysOffline(): boolean {
  return sharedClient?.offline ?? false
}

/** The app's single live client, created on first use and kept signed in with the session. */
export function liveClient(): LiveClient {
  if (!sharedClient) {
    // as for a token-expired answer: the session is gone, automatic sign-in may start a new one
    const client = new LiveClient({
      url: liveUrl,
      onSessionEnded: () => signOut({ forgetAutoLogin: false, ended: 'elsewhere' }),
    })
    keepInSync(client)
    client.setToken(currentToken())
    session.subscribe(() => client.setToken(currentToken()))
    sharedClient = client
  }
  return sharedClient
}
