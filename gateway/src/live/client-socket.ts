import type { Socket } from 'node:net'
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
import type { HubSocket, TopicHub } from './hub'
import type { UserResolution } from './user-resolver'
import { SLOW_CONSUMER, type SocketLog } from './socket-log'

// One browser socket: parses its frames, enforces its limits, and is written to by the hub.

export interface ClientLimits {
  maxSubscriptions: number
  maxFramesPerSecond: number
}

export interface ClientSocketDeps {
  hub: TopicHub
  limits: ClientLimits
  resolveUser(token: string): Promise<UserResolution>
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

function isUserType(type: string): type is UserType {
  return (USER_TYPES as readonly string[]).includes(type)
}

export class ClientSocket implements HubSocket {
  /** topic -> the rate the socket gets it at */
  readonly topics = new Map<string, StreamRate>()
  readonly userTypes = new Set<string>()
  userId: string | null = null
  /** cleared by each ping, set by each pong or frame */
  alive = true
  private corked = false
  /** bytes written in this event-loop turn: a burst, not a backlog the client failed to read */
  private turnBytes = 0
  private windowStartedAt = 0
  private framesInWindow = 0
  /** frames that arrived while an auth was being resolved, handled in order after it */
  private waiting: string[] | null = null

  constructor(
    readonly ws: WebSocket,
    private readonly raw: Socket,
    /** shared by every socket of the instance */
    private readonly deps: ClientSocketDeps,
    readonly log?: SocketLog,
  ) {
    ws.on('message', (data, isBinary) => this.receive(data, isBinary))
    ws.on('pong', () => {
      this.alive = true
    })
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
    this.userTypes.clear()
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
      this.abuse(WS_ERROR.tooManySubscriptions, 'tooManyFrames')
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
    if (!('operation' in frame)) return this.sendJson({ type: 'HEARTBEAT', ts: Date.now() })
    if (frame.operation === 'auth') {
      return this.holdUntil(this.deps.resolveUser(frame.satoken), (resolution) => {
        if ('userId' in resolution) this.becomeUser(resolution.userId)
        else this.sendError(WS_ERROR.notAuthorised, resolution.error)
      })
    }
    if (frame.operation === 'heartbeat') return this.sendJson({ type: 'HEARTBEAT', ts: Date.now() })
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
        this.userTypes.delete(frame.type)
        if (this.userTypes.size > 0) return
      }
      if (!this.topics.delete(topic)) return
      this.deps.hub.remove(this, topic)
      this.deps.onSubscriptionsChanged?.()
      return
    }
    if (user) this.userTypes.add(frame.type)
    const rate = ('rate' in frame && frame.rate) || 0
    const current = this.topics.get(topic)
    if (current === rate) return
    if (current === undefined) {
      if (this.topics.size >= this.deps.limits.maxSubscriptions) {
        this.abuse(WS_ERROR.tooManySubscriptions, 'tooManySubscriptions')
        return
      }
      if ('symbol' in frame && frame.symbol && this.deps.symbols.check(frame.symbol) === 'unknown') {
        this.refuse('unknown_symbol', WS_ERROR.badFrame, 'unknownSymbol')
        return
      }
    }
    if (!this.deps.hub.add(this, topic, rate)) {
      if (user) this.userTypes.delete(frame.type)
      this.refuse('too_many_topics', WS_ERROR.tooManySubscriptions, 'tooManyTopics')
      return
    }
    this.topics.set(topic, rate)
    this.deps.onSubscriptionsChanged?.()
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

  private becomeUser(userId: string): void {
    if (this.userId === userId) return
    if (this.userId) {
      const previous = userTopic(this.userId)
      if (this.topics.delete(previous)) this.deps.hub.remove(this, previous)
      this.userTypes.clear()
    }
    this.userId = userId
  }
}
