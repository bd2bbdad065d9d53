import type { WebSocket } from 'ws'
import { detailTopic, topicsOf, type UpstreamFrame, type UserType } from '@tradegate/shared'

// Who receives what: gateway sockets get every frame, client sockets only the topics they subscribed.

/** Past this many unsent bytes a socket skips market frames rather than queue them without bound. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 500

type MarketFrame = Extract<UpstreamFrame, { type: 'DETAIL' | 'KLINE' | 'TRADE' | 'DEPTH' }>

export class FeedHub {
  private readonly gatewaySockets = new Set<WebSocket>()
  /** gateways that connected while the feed was paused: they join, greeted, when it resumes */
  private readonly waitingGateways = new Set<WebSocket>()
  /** what a gateway receives first: the books it keeps by updates */
  private greeting: () => string[] = () => []
  private readonly topicsBySocket = new Map<WebSocket, Set<string>>()
  private readonly socketsByTopic = new Map<string, Set<WebSocket>>()
  private paused = false

  constructor(private readonly clock: () => number) {}

  get isPaused(): boolean {
    return this.paused
  }

  get socketCount(): number {
    return this.gatewaySockets.size + this.waitingGateways.size + this.topicsBySocket.size
  }

  pause(): void {
    this.paused = true
  }

  resume(): void {
    this.paused = false
    for (const socket of this.waitingGateways) this.joinGateway(socket)
    this.waitingGateways.clear()
  }

  greetGatewaysWith(greeting: () => string[]): void {
    this.greeting = greeting
  }

  addGateway(socket: WebSocket): void {
    socket.once('close', () => {
      this.gatewaySockets.delete(socket)
      this.waitingGateways.delete(socket)
    })
    if (this.paused) this.waitingGateways.add(socket)
    else this.joinGateway(socket)
  }

  /**
   * The greeting is taken before the socket joins: taking it may publish pending changes, which
   * must not reach the socket ahead of the snapshots that already hold them.
   */
  private joinGateway(socket: WebSocket): void {
    const greeting = this.greeting()
    this.gatewaySockets.add(socket)
    for (const json of greeting) sendAlways(socket, json)
  }

  addClient(socket: WebSocket): void {
    this.topicsBySocket.set(socket, new Set())
    socket.once('close', () => {
      for (const topic of this.topicsBySocket.get(socket) ?? [])
        this.socketsByTopic.get(topic)?.delete(socket)
      this.topicsBySocket.delete(socket)
    })
  }

  /** False when the socket already holds too many subscriptions. */
  subscribe(socket: WebSocket, topic: string): boolean {
    const topics = this.topicsBySocket.get(socket)
    if (!topics) return true
    if (!topics.has(topic) && topics.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) return false
    topics.add(topic)
    let sockets = this.socketsByTopic.get(topic)
    if (!sockets) this.socketsByTopic.set(topic, (sockets = new Set()))
    sockets.add(socket)
    return true
  }

  unsubscribe(socket: WebSocket, topic: string): void {
    this.topicsBySocket.get(socket)?.delete(topic)
    this.socketsByTopic.get(topic)?.delete(socket)
  }

  publishMarket(frame: MarketFrame): void {
    if (this.paused) return
    const json = JSON.stringify(frame)
    for (const socket of this.gatewaySockets) sendMarket(socket, json)
    const topics = topicsOf(frame)
    const [first, second] = topics
    if (second === undefined) {
      for (const socket of this.socketsByTopic.get(first ?? '') ?? []) sendMarket(socket, json)
      return
    }
    // DETAIL goes to its symbol's topic and to "every symbol"; a socket on both gets it once
    const symbolSockets = this.socketsByTopic.get(first ?? '')
    for (const socket of symbolSockets ?? []) sendMarket(socket, json)
    for (const socket of this.socketsByTopic.get(detailTopic()) ?? []) {
      if (!symbolSockets?.has(socket)) sendMarket(socket, json)
    }
  }

  /** Per-user events go only to gateway sockets, which route them by userId. */
  publishUser(type: UserType, userId: string, data: Record<string, unknown>): void {
    if (this.paused) return
    const json = JSON.stringify({ type, userId, data, ts: this.clock() })
    for (const socket of this.gatewaySockets) sendAlways(socket, json)
  }

  heartbeat(): void {
    if (this.paused) return
    const json = JSON.stringify({ type: 'HEARTBEAT', ts: this.clock() })
    for (const socket of this.gatewaySockets) sendAlways(socket, json)
    for (const socket of this.topicsBySocket.keys()) sendAlways(socket, json)
  }

  /** Cuts every socket without a closing handshake, as a network failure would. */
  dropAll(): number {
    const sockets = [...this.gatewaySockets, ...this.waitingGateways, ...this.topicsBySocket.keys()]
    for (const socket of sockets) socket.terminate()
    return sockets.length
  }

  sendError(socket: WebSocket, code: number, msg: string): void {
    sendAlways(socket, JSON.stringify({ type: 'error', code, msg }))
  }
}

function sendMarket(socket: WebSocket, json: string): void {
  if (socket.readyState === socket.OPEN && socket.bufferedAmount < MAX_BUFFERED_BYTES) socket.send(json)
}

function sendAlways(socket: WebSocket, json: string): void {
  if (socket.readyState === socket.OPEN) socket.send(json)
}
