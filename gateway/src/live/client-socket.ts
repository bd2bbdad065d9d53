import type { Socket } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { WebSocket, type RawData } from 'ws'
import {
  USER_TYPES,
  WS_CLOSE,
  WS_ERROR,
  parseClientFrame,
  topicOf,
  userTopic,
  type ClientFrame,
  type StreamRate,
  type SubscriptionFrame,
  type UserType,
} from '@tradegate/shared'
import type { CoinSymbols } from './coin-symbols'
import type { HubSocket } from './backpressure'
import type { TopicHub } from './hub'
import { SLOW_CONSUMER, type SocketLog } from './socket-log'

// One browser socket: parses its frames, enforces its limits, and is written to by the hub.

export interface ClientLimits {
  maxSubscriptions: number
  maxFramesPerSecond: number
}

/** An auth frame's outcome; `session` is the token's key (never the token), by which a session is ended. */
export type Authentication =
  | { userId: string; session: string }
  | { refused: 'notAuthorised' | 'upstreamUnavailable' | 'sessionEnded' | 'tooManyRequests' }

export interface ClientSocketDeps {
  hub: TopicHub
  limits: ClientLimits
  /** checks a token for a socket from `address`, drawing on that address's request budget */
  authenticate(token: string, address: string): Promise<Authentication>
  /** the socket's session changed from `previous` (null: none) to its current `session` */
  sessionChanged?(socket: ClientSocket, previous: string | null): void
  /** the symbols a market subscription may name */
  symbols: Pick<CoinSymbols, 'settled' | 'check' | 'refresh'>
  /** counts a subscription refused without closing the socket */
  refused?(reason: SubscriptionRefusal): void
  onSubscriptionsChanged?(): void
}

export type SubscriptionRefusal = 'unknown_symbol' | 'too_many_topics'

/** Frames a socket may send while its auth or the coin list is awaited; the rate limit bounds them anyway. */
const MAX_FRAMES_WAITING = 64
const SLOW_CLOSE_GRACE_MS = 2000
/**
 * The longest a heartbeat's answer waits for a new topic's bus subscription: a bus that does not
 * confirm is down, and once it is back every socket is sent a resync frame.
 */
export const HEARTBEAT_WAIT_MS = 5000
/** refused auths a socket may make; the last of them closes it */
export const MAX_FAILED_AUTHS = 3

let corked: ClientSocket[] = []
let flushScheduled = false

/** Hands every socket's frames of this event-loop turn to the kernel in one write each. */
function flushCorked(): void {
  flushScheduled = false
  // swapped first: an uncork may lead to writes that cork a socket for the next turn
  const sockets = corked
  corked = []
  for (const socket of sockets) socket.uncork()
}

const NO_USER_TYPES: ReadonlySet<string> = new Set()

/** The client a ws socket carries: its listeners are shared by every socket instead of closures per socket. */
const CLIENT = Symbol('client')
type ClientWs = WebSocket & { [CLIENT]?: ClientSocket }

/** The ClientSocket `ws` belongs to; for listeners shared by every socket, called with the socket as `this`. */
export function clientOf(ws: WebSocket): ClientSocket {
  return (ws as ClientWs)[CLIENT]!
}

function isUserType(type: string): type is UserType {
  return (USER_TYPES as readonly string[]).includes(type)
}

export class ClientSocket implements HubSocket {
  /** topic -> the rate the socket gets it at */
  readonly topics = new Map<string, StreamRate>()
  /** shared and empty until the socket asks for a per-user type: most sockets never do */
  private ownUserTypes: Set<string> | null = null
  userId: string | null = null
  /** the key of the token the user id came from */
  session: string | null = null
  /** cleared by each ping, set by each pong or frame */
  alive = true
  private corked = false
  /** bytes written in this event-loop turn: a burst, not a backlog the client failed to read */
  private turnBytes = 0
  private windowStartedAt = 0
  private framesInWindow = 0
  /** frames that arrived while an auth was being resolved, handled in order after it */
  private waiting: string[] | null = null
  /** settles once the subscriptions asked for so far take effect; null when they have */
  private joining: Promise<unknown> | null = null
  private failedAuths = 0

  constructor(
    readonly ws: WebSocket,
    private readonly raw: Socket,
    /** the client address, as the rate limit keys it */
    readonly address: string,
    /** shared by every socket of the instance */
    private readonly deps: ClientSocketDeps,
    readonly log?: SocketLog,
  ) {
    ;(ws as ClientWs)[CLIENT] = this
    ws.on('message', ClientSocket.onMessage)
    ws.on('pong', ClientSocket.onPong)
  }

  private static onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
    clientOf(this).receive(data, isBinary)
  }

  private static onPong(this: WebSocket): void {
    clientOf(this).alive = true
  }

  get userTypes(): ReadonlySet<string> {
    return this.ownUserTypes ?? NO_USER_TYPES
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN
  }

  bufferedBytes(): number {
    return this.raw.writableLength - this.turnBytes
  }

  writeFrame(frame: Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return
    if (!this.corked) {
      this.corked = true
      this.raw.cork()
      corked.push(this)
      if (!flushScheduled) {
        flushScheduled = true
        setImmediate(flushCorked)
      }
    }
    this.turnBytes += frame.length
    this.raw.write(frame)
  }

  uncork(): void {
    if (!this.corked) return
    this.corked = false
    this.turnBytes = 0
    this.raw.uncork()
  }

  closeSlow(): void {
    this.leaveAll()
    if (this.ws.readyState !== WebSocket.OPEN) return
    this.log?.slowClosed(this.raw.writableLength)
    this.ws.close(WS_CLOSE.tryAgainLater, SLOW_CONSUMER)
    // a client that stopped reading will not answer the close handshake either
    setTimeout(() => this.ws.terminate(), SLOW_CLOSE_GRACE_MS).unref()
  }

  /** Leaves every topic; called on close. */
  leaveAll(): void {
    if (this.topics.size === 0) return
    for (const topic of this.topics.keys()) this.deps.hub.remove(this, topic)
    this.topics.clear()
    this.ownUserTypes = null
    this.deps.onSubscriptionsChanged?.()
  }

  sendJson(frame: object): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame))
  }

  private sendError(code: number, msg: string): void {
    this.sendJson({ type: 'error', code, msg })
  }

  private abuse(code: number, msg: string): void {
    this.log?.limitHit(msg)
    this.sendError(code, msg)
    this.leaveAll()
    this.ws.close(WS_CLOSE.policyViolation, msg)
  }

  private receive(data: RawData, isBinary: boolean): void {
    this.alive = true
    if (this.ws.readyState !== WebSocket.OPEN) return
    const now = Date.now()
    if (now - this.windowStartedAt >= 1000) {
      this.windowStartedAt = now
      this.framesInWindow = 0
    }
    if (++this.framesInWindow > this.deps.limits.maxFramesPerSecond) {
      this.abuse(WS_ERROR.tooMany, 'tooManyFrames')
      return
    }
    if (isBinary) {
      this.sendError(WS_ERROR.badFrame, 'textFramesOnly')
      return
    }
    const text = Array.isArray(data) ? Buffer.concat(data).toString() : Buffer.from(data as Buffer).toString()
    if (this.waiting) {
      if (this.waiting.length >= MAX_FRAMES_WAITING) this.abuse(WS_ERROR.badFrame, 'tooManyFrames')
      else this.waiting.push(text)
      return
    }
    this.handle(text)
  }

  private handle(text: string): void {
    const parsed = parseClientFrame(text)
    if (!parsed.ok) {
      this.sendError(WS_ERROR.badFrame, parsed.error)
      return
    }
    const frame: ClientFrame = parsed.value
    if (!('operation' in frame)) return this.answerHeartbeat()
    if (frame.operation === 'auth') {
      return this.holdUntil(this.deps.authenticate(frame.satoken, this.address), (outcome) =>
        'userId' in outcome
          ? this.becomeUser(outcome.userId, outcome.session)
          : this.authRefused(outcome.refused),
      )
    }
    if (frame.operation === 'heartbeat') return this.answerHeartbeat()
    // the first subscriptions after start wait for the coin list rather than pass unchecked
    if (frame.operation === 'subscribe' && 'symbol' in frame && frame.symbol && !this.deps.symbols.settled) {
      return this.holdUntil(this.deps.symbols.refresh(), () => this.changeSubscription(frame))
    }
    this.changeSubscription(frame)
  }

  private changeSubscription(frame: SubscriptionFrame): void {
    const user = isUserType(frame.type)
    if (user && !this.userId) {
      this.sendError(WS_ERROR.notAuthorised, 'notAuthorised')
      return
    }
    const topic = topicOf(frame, this.userId ?? undefined)
    if (!topic) return
    if (frame.operation === 'unsubscribe') {
      if (user) {
        this.ownUserTypes?.delete(frame.type)
        if (this.userTypes.size > 0) return
      }
      if (!this.topics.delete(topic)) return
      this.deps.hub.remove(this, topic)
      this.deps.onSubscriptionsChanged?.()
      return
    }
    if (user) (this.ownUserTypes ??= new Set()).add(frame.type)
    const rate = ('rate' in frame && frame.rate) || 0
    const current = this.topics.get(topic)
    if (current === rate) return
    if (current === undefined) {
      if (this.topics.size >= this.deps.limits.maxSubscriptions) {
        this.abuse(WS_ERROR.tooMany, 'tooManySubscriptions')
        return
      }
      if ('symbol' in frame && frame.symbol && this.deps.symbols.check(frame.symbol) === 'unknown') {
        this.refuse('unknown_symbol', WS_ERROR.badFrame, 'unknownSymbol')
        return
      }
    }
    const shared = this.deps.hub.add(this, topic, rate)
    if (shared === null) {
      if (user) this.ownUserTypes?.delete(frame.type)
      this.refuse('too_many_topics', WS_ERROR.tooMany, 'tooManyTopics')
      return
    }
    this.topics.set(shared, rate)
    const joined = this.deps.hub.joined(shared)
    if (joined) {
      const all = this.joining ? Promise.all([this.joining, joined]) : joined
      this.joining = all
      // let go once settled: a socket that never sends a heartbeat keeps no chain of them
      void all.then(() => {
        if (this.joining === all) this.joining = null
      })
    }
    this.deps.onSubscriptionsChanged?.()
  }

  /**
   * A heartbeat is answered once every subscription asked for before it takes effect, and the frames
   * after it wait their turn: the answer tells the client that from then on nothing on those streams
   * passes it by, so what it fetches then leaves no gap (a new topic waits for the bus's confirmation,
   * for at most HEARTBEAT_WAIT_MS).
   */
  private answerHeartbeat(): void {
    const joining = this.joining
    this.joining = null
    if (!joining) return this.sendJson({ type: 'HEARTBEAT', ts: Date.now() })
    const waited = Promise.race([joining, delay(HEARTBEAT_WAIT_MS, undefined, { ref: false })])
    this.holdUntil(waited, () => this.sendJson({ type: 'HEARTBEAT', ts: Date.now() }))
  }

  /** A subscription refused without closing the socket: the client may still use its others. */
  private refuse(reason: SubscriptionRefusal, code: number, msg: string): void {
    this.deps.refused?.(reason)
    this.sendError(code, msg)
  }

  /** Handles the frames that arrive until `work` settles after it, in order. */
  private holdUntil<T>(work: Promise<T>, then: (value: T) => void): void {
    this.waiting = []
    void work.then((value) => {
      if (this.ws.readyState === WebSocket.OPEN) then(value)
      const waiting = this.waiting ?? []
      this.waiting = null
      for (let i = 0; i < waiting.length; i++) {
        if (this.ws.readyState !== WebSocket.OPEN) break
        // a queued frame that waits in turn queues the rest behind it
        const nested = this.waitingFrames()
        if (nested) {
          nested.push(...waiting.slice(i))
          break
        }
        this.handle(waiting[i]!)
      }
    })
  }

  private waitingFrames(): string[] | null {
    return this.waiting
  }

  private authRefused(reason: Exclude<Authentication, { userId: string }>['refused']): void {
    // an upstream that does not answer is not the client's failure
    if (reason !== 'upstreamUnavailable' && ++this.failedAuths >= MAX_FAILED_AUTHS) {
      this.abuse(WS_ERROR.notAuthorised, 'tooManyFailedAuths')
      return
    }
    if (reason === 'sessionEnded') this.sendError(WS_ERROR.sessionEnded, reason)
    else if (reason === 'tooManyRequests') this.sendError(WS_ERROR.tooMany, reason)
    else this.sendError(WS_ERROR.notAuthorised, reason)
  }

  private becomeUser(userId: string, session: string): void {
    const previous = this.session
    this.session = session
    if (previous !== session) this.deps.sessionChanged?.(this, previous)
    if (this.userId === userId) return
    if (this.userId) this.leaveUserTopic()
    this.userId = userId
  }

  private leaveUserTopic(): void {
    const topic = userTopic(this.userId!)
    if (this.topics.delete(topic)) {
      this.deps.hub.remove(this, topic)
      this.deps.onSubscriptionsChanged?.()
    }
    this.ownUserTypes = null
  }

  /**
   * The socket's session ended: its per-user streams stop, and the client is told with an error
   * frame. Market streams go on; a new auth may start another session.
   */
  endSession(): void {
    if (!this.session) return
    const previous = this.session
    if (this.userId) this.leaveUserTopic()
    this.userId = null
    this.session = null
    this.deps.sessionChanged?.(this, previous)
    this.log?.sessionEnded()
    this.sendError(WS_ERROR.sessionEnded, 'sessionEnded')
  }
}
