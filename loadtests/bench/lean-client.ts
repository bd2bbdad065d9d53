/**
 * Many client sockets in one process, doing as little as possible per frame so the load generator
 * is not the bottleneck, and costing the same for every system: WebSocket on raw TCP sockets, with
 * Socket.IO's packets spoken over it by hand for the Socket.IO servers. Outside a measurement
 * window a frame is only counted; inside one, its publish time is read from the end of its text and
 * the frame is counted in the window it was published in (`window-accounting.ts`).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { connect as connectTcp } from 'node:net'
import { planClients, subscriberCounts, topicOfSubscribe, type ClientPlan, type Scenario } from './scenario'
import { seededRandom } from '@tradegate/shared'
import { PublishTimeWindow, type WindowCount } from './window-accounting'
import { DROP_CLOSE_CODE, type StormPolicy } from './reconnect-policy'
import {
  readSocketIoPacket,
  SOCKET_IO_CONNECT,
  SOCKET_IO_PONG,
  socketIoEvent,
  socketIoWebSocketUrl,
} from './socketio-framing'

export type ClientProtocol = 'ws' | 'socket.io'

export interface LeanClientOptions {
  /** ws: base URL, each socket opens `${url}/<uuid>`; socket.io: the server's http URL. */
  url: string
  protocol: ClientProtocol
  clients: number
  scenario: Scenario
  /** Sockets being opened at once during the initial connect. */
  connectConcurrency?: number
  /** Sockets being opened at once during the reconnect storm. */
  stormConcurrency?: number
  handshakeTimeoutMs?: number
  /**
   * When the sockets a storm drops were opened (performance.now()), for a fleet that reopens sockets
   * another generator held; by default, when this fleet last connected.
   */
  connectedAt?: number
}

export interface StormOptions {
  /** How each socket waits before each attempt; a refused or failed attempt waits again. */
  policy: StormPolicy
  timeoutMs: number
}

export interface ConnectReport {
  opened: number
  failed: number
  /** Handshakes that failed and were tried again (the native generator's). */
  retried?: number
  ms: number
  perSecond: number
}

/** What the clients saw of one window: frames by publish time, and this process's own CPU. */
export interface ClientWindow {
  /** Publish times (epoch ms) the window covers, both included. */
  from: number
  to: number
  seconds: number
  raw: WindowCount
  rated: WindowCount
  backlog: number
  /** CPU of this whole process as a share of one core; near 100 means the client, not the server, was the limit. */
  clientCpuPercent: number
  socketErrors: number
  /** The native generator's longest passes over its ready sockets (ms), see SocketWindow. */
  stallMs?: { p99: number; max: number }
}

export interface StormReport {
  sockets: number
  failed: number
  /** The clients' reconnect policy. */
  policy: string
  /** Attempts that failed and were tried again. */
  retries: number
  /** From the drop to the last socket open. */
  openMs: number
  /** From dropping every socket to the last one receiving a frame after it resubscribed. */
  ms: number
  /** Sockets that never got a frame after resubscribing before the timeout. */
  missing: number
}

const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
const COLON = 0x3a
const DOT = 0x2e
const TS_KEY = Buffer.from('"ts"')

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
}
function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39
}

/**
 * Publish time of a server frame without parsing it: walked back from the end, a number that is
 * the last member of the outermost object (`…,"ts":123}`), also inside a Socket.IO event
 * (`42["message",{…,"ts":123}]`). Any other layout falls back to JSON.parse.
 */
export function extractPublishTs(frame: Buffer): number | undefined {
  let i = frame.length - 1
  while (isSpace(frame[i])) i--
  if (frame[i] === CLOSE_BRACKET) {
    i--
    while (isSpace(frame[i])) i--
  }
  if (frame[i] === CLOSE_BRACE) {
    i--
    while (isSpace(frame[i])) i--
    const end = i + 1
    let fractional = false
    while (isDigit(frame[i]) || frame[i] === DOT) {
      if (frame[i] === DOT) fractional = true
      i--
    }
    const start = i + 1
    while (isSpace(frame[i])) i--
    if (end > start && frame[i] === COLON) {
      i--
      while (isSpace(frame[i])) i--
      if (i >= 3 && frame.subarray(i - 3, i + 1).equals(TS_KEY)) {
        if (fractional) return Number(frame.toString('latin1', start, end))
        let value = 0
        for (let at = start; at < end; at++) value = value * 10 + frame[at]! - 0x30
        return value
      }
    }
  }
  return parsedPublishTs(frame)
}

function parsedPublishTs(frame: Buffer): number | undefined {
  try {
    const text = frame.toString()
    const parsed = JSON.parse(text.startsWith('42[') ? text.slice(2) : text) as unknown
    const object = (Array.isArray(parsed) ? parsed[1] : parsed) as { ts?: unknown } | null
    return typeof object?.ts === 'number' ? object.ts : undefined
  } catch {
    return undefined
  }
}

const DETAIL_PREFIX = Buffer.from('{"type":"DETAIL","symbol":"')

/**
 * Whether a frame belongs to the client's rated subscriptions: in this scenario those are the
 * market list's DETAIL, never the traded symbol's. Frames start `{"type":…,"symbol":…` on every
 * system, so the type and symbol are compared in place.
 */
export function listFrameTest(traded: string): (payload: Buffer, offset: number) => boolean {
  const tradedEnd = Buffer.from(`${traded}"`)
  return (payload, offset) => {
    if (payload.length < offset + DETAIL_PREFIX.length + tradedEnd.length) return false
    if (payload.compare(DETAIL_PREFIX, 0, DETAIL_PREFIX.length, offset, offset + DETAIL_PREFIX.length) !== 0)
      return false
    const symbolAt = offset + DETAIL_PREFIX.length
    return payload.compare(tradedEnd, 0, tradedEnd.length, symbolAt, symbolAt + tradedEnd.length) !== 0
  }
}

const OPCODE_TEXT = 0x1
const OPCODE_CLOSE = 0x8
const OPCODE_PING = 0x9
export const OPCODE_PONG = 0xa

/** A client-to-server frame: FIN, the opcode, and the payload masked as RFC 6455 requires. */
export function maskedFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length
  const headerLength = length < 126 ? 2 : 4
  if (length >= 65_536) throw new Error('client frames stay under 64 KiB')
  const frame = Buffer.allocUnsafe(headerLength + 4 + length)
  frame[0] = 0x80 | opcode
  if (length < 126) frame[1] = 0x80 | length
  else {
    frame[1] = 0x80 | 126
    frame.writeUInt16BE(length, 2)
  }
  const mask = randomBytes(4)
  mask.copy(frame, headerLength)
  for (let i = 0; i < length; i++) frame[headerLength + 4 + i] = payload[i]! ^ mask[i & 3]!
  return frame
}

const textFrame = (text: string): Buffer => maskedFrame(OPCODE_TEXT, Buffer.from(text))

/**
 * Splits the server's byte stream into frames by their headers. Text payloads are handed out as
 * views into the received chunk; only a frame cut across chunks is copied.
 */
export class ServerFrameReader {
  private pending: Buffer | undefined

  constructor(
    private readonly onText: (payload: Buffer) => void,
    private readonly onPing: (payload: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk
    this.pending = undefined
    let at = 0
    while (data.length - at >= 2) {
      const opcode = data[at]! & 0x0f
      let length = data[at + 1]! & 0x7f
      let header = 2
      if (length === 126) {
        if (data.length - at < 4) break
        length = data.readUInt16BE(at + 2)
        header = 4
      } else if (length === 127) {
        if (data.length - at < 10) break
        length = Number(data.readBigUInt64BE(at + 2))
        header = 10
      }
      // Server frames are never masked; a masked one would carry 4 more header bytes.
      if (data[at + 1]! & 0x80) header += 4
      if (data.length - at < header + length) break
      const payload = data.subarray(at + header, at + header + length)
      if (opcode === OPCODE_TEXT || opcode === 0x0) this.onText(payload)
      else if (opcode === OPCODE_PING) this.onPing(payload)
      else if (opcode === OPCODE_CLOSE) return
      at += header + length
    }
    if (at < data.length) {
      data = data.subarray(at)
      this.pending = Buffer.from(data)
    }
  }
}

interface ClientSocket {
  plan: ClientPlan
  /** True from (re)subscribing until the first frame arrives. */
  awaitingFirstFrame: boolean
  /** Set when the plan has rated subscriptions. */
  isRated?: (payload: Buffer, offset: number) => boolean
  close(): void
}

export class LeanClientFleet {
  private readonly plans: ClientPlan[]
  private sockets: ClientSocket[] = []
  private awaiting = 0
  private allReceived: (() => void) | undefined
  private window: PublishTimeWindow | undefined
  private socketErrors = 0
  private closing = false
  /** When the last connect finished: how long the sockets a storm drops had been open. */
  private connectedAt = performance.now()
  totalFrames = 0

  constructor(private readonly options: LeanClientOptions) {
    this.plans = planClients(options.scenario, options.clients)
    if (options.connectedAt !== undefined) this.connectedAt = options.connectedAt
  }

  /** Distinct topics the plans subscribe to: what a bus needs to subscribe, however many sockets. */
  get topicCount(): number {
    return new Set(this.plans.flatMap((plan) => plan.subscribeFrames.map(topicOfSubscribe))).size
  }

  get openSockets(): number {
    return this.sockets.length
  }

  /** Subscribers per topic among the sockets open now: what the offered rate is worked out from. */
  subscribers(): ReturnType<typeof subscriberCounts> {
    return subscriberCounts(this.sockets.map((socket) => socket.plan))
  }

  /** Opens every socket; those not started within `deadlineMs` count as failed. */
  async connect(deadlineMs = 60_000): Promise<ConnectReport> {
    const report = await this.openAll(
      this.options.connectConcurrency ?? 200,
      performance.now() + deadlineMs,
      () => 0,
    )
    this.connectedAt = performance.now()
    return report
  }

  /** Resolves once every open socket has received at least one frame since it subscribed. */
  waitUntilAllReceived(timeoutMs: number): Promise<{ ms: number; missing: number }> {
    const started = performance.now()
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer)
        this.allReceived = undefined
        resolve({ ms: performance.now() - started, missing: this.awaiting })
      }
      const timer = setTimeout(finish, timeoutMs)
      if (this.awaiting === 0) finish()
      else this.allReceived = finish
    })
  }

  /**
   * Opens a window at this moment's publish time. Close it with the returned function: frames
   * published until then still count when they arrive within `graceMs` after it.
   */
  openWindow(): (graceMs: number) => Promise<ClientWindow> {
    const window = new PublishTimeWindow(Date.now())
    this.window = window
    this.socketErrors = 0
    const started = performance.now()
    const cpuStart = process.cpuUsage()
    return async (graceMs) => {
      window.close(Date.now())
      const seconds = (performance.now() - started) / 1000
      const cpu = process.cpuUsage(cpuStart)
      const socketErrors = this.socketErrors
      await new Promise((done) => setTimeout(done, graceMs))
      if (this.window === window) this.window = undefined
      return {
        from: window.from,
        to: window.end,
        seconds,
        raw: window.count('raw'),
        rated: window.count('rated'),
        backlog: window.backlog,
        clientCpuPercent: ((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100,
        socketErrors,
      }
    }
  }

  /**
   * Drops every socket at once, then reopens each after the waits its own back-off draws (from one
   * seeded source in plan order, so the waves are the same for every system), as a browser would
   * after its gateway went away, and waits until each has a frame again.
   */
  async reconnectStorm(options: StormOptions): Promise<StormReport> {
    const started = performance.now()
    const deadline = started + options.timeoutMs
    const openForMs = started - this.connectedAt
    this.closeAll()
    const random = seededRandom(0x5707).next
    const handshakes = new Limit(this.options.stormConcurrency ?? 1000)
    let retries = 0
    let failed = 0
    let lastOpen = started
    const reconnect = async (plan: ClientPlan): Promise<void> => {
      const backoff = options.policy.forSocket(random)
      // the dropped socket had been open since the fleet connected; each failed attempt never opened
      let wait = backoff.next(openForMs, DROP_CLOSE_CODE)
      for (;;) {
        if (performance.now() + wait > deadline) {
          failed += 1
          return
        }
        await new Promise((done) => setTimeout(done, wait))
        try {
          this.sockets.push(await handshakes.run(() => this.openOne(plan)))
          lastOpen = performance.now()
          return
        } catch {
          retries += 1
          wait = backoff.next(0, undefined)
        }
      }
    }
    await Promise.all(this.plans.map(reconnect))
    const remaining = Math.max(1, deadline - performance.now())
    const { missing } = await this.waitUntilAllReceived(remaining)
    return {
      sockets: this.sockets.length,
      failed,
      policy: options.policy.name,
      retries,
      openMs: lastOpen - started,
      ms: performance.now() - started,
      missing,
    }
  }

  close(): void {
    this.closeAll()
  }

  private closeAll(): void {
    this.closing = true
    for (const socket of this.sockets) socket.close()
    this.sockets = []
    this.awaiting = 0
    this.closing = false
  }

  /** Opens every plan's socket, at most `concurrency` handshakes at once, none before `notBefore(i)`. */
  private async openAll(
    concurrency: number,
    deadline: number,
    notBefore: (index: number) => number,
  ): Promise<ConnectReport> {
    const started = performance.now()
    let next = 0
    let failed = 0
    const opened: ClientSocket[] = []
    const worker = async (): Promise<void> => {
      while (next < this.plans.length) {
        if (performance.now() > deadline) {
          failed += this.plans.length - next
          next = this.plans.length
          return
        }
        const index = next++
        const plan = this.plans[index]!
        const wait = notBefore(index) - performance.now()
        if (wait > 0) await new Promise((done) => setTimeout(done, wait))
        try {
          opened.push(await this.openOne(plan))
        } catch {
          failed += 1
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, this.plans.length) }, worker))
    this.sockets.push(...opened)
    const ms = performance.now() - started
    return { opened: opened.length, failed, ms, perSecond: opened.length / (ms / 1000) }
  }

  private onSubscribed(socket: ClientSocket): void {
    socket.awaitingFirstFrame = true
    this.awaiting += 1
  }

  /** `offset`: where the frame's JSON object starts in `payload` (after Socket.IO's event prefix). */
  private onFrame(socket: ClientSocket, payload: Buffer, offset: number): void {
    this.totalFrames += 1
    if (socket.awaitingFirstFrame) {
      socket.awaitingFirstFrame = false
      this.awaiting -= 1
      if (this.awaiting === 0) this.allReceived?.()
    }
    const window = this.window
    if (!window) return
    const ts = extractPublishTs(payload)
    if (ts === undefined) return
    window.record(ts, Date.now(), socket.isRated?.(payload, offset) ?? false)
  }

  private onSocketError(): void {
    if (!this.closing) this.socketErrors += 1
  }

  /**
   * A WebSocket client on a bare TCP socket: the upgrade request by hand, then server frames are
   * walked by their headers without copying or decoding, so one core can count far more frames
   * than the `ws` client allows. Pings are answered so the server's heartbeat keeps the socket.
   * Over it, either the gateway's protocol (subscribe frames as they are) or Socket.IO's packets.
   */
  private openOne(plan: ClientPlan): Promise<ClientSocket> {
    const socketIo = this.options.protocol === 'socket.io'
    const url = socketIo
      ? socketIoWebSocketUrl(this.options.url)
      : new URL(`${this.options.url}/${randomUUID()}`)
    const tcp = connectTcp({ host: url.hostname, port: Number(url.port || 80), noDelay: true })
    const socket: ClientSocket = {
      plan,
      awaitingFirstFrame: false,
      isRated: plan.ratedTopics.length > 0 ? listFrameTest(plan.traded) : undefined,
      close: () => tcp.destroy(),
    }
    const subscribe = (): void => {
      this.onSubscribed(socket)
      tcp.write(
        Buffer.concat(
          plan.subscribeFrames.map((frame) =>
            textFrame(socketIo ? socketIoEvent(frame) : JSON.stringify(frame)),
          ),
        ),
      )
    }
    return new Promise((resolve, reject) => {
      let head: Buffer = Buffer.alloc(0)
      const timer = setTimeout(
        () => fail(new Error('handshake timeout')),
        this.options.handshakeTimeoutMs ?? 15_000,
      )
      const fail = (error: Error): void => {
        clearTimeout(timer)
        tcp.destroy()
        reject(error)
      }
      const ready = (): void => {
        clearTimeout(timer)
        tcp.off('error', fail)
        tcp.on('error', () => this.onSocketError())
        subscribe()
        resolve(socket)
      }
      const onText = socketIo
        ? (payload: Buffer): void => {
            const packet = readSocketIoPacket(payload)
            if (packet.kind === 'event') this.onFrame(socket, payload, packet.offset)
            else if (packet.kind === 'ping') tcp.write(textFrame(SOCKET_IO_PONG))
            else if (packet.kind === 'open') tcp.write(textFrame(SOCKET_IO_CONNECT))
            else if (packet.kind === 'connected') ready()
            else if (packet.kind === 'closed')
              fail(new Error(`socket.io closed: ${payload.toString().slice(0, 200)}`))
          }
        : (payload: Buffer): void => this.onFrame(socket, payload, 0)
      const reader = new ServerFrameReader(onText, (payload) => tcp.write(maskedFrame(OPCODE_PONG, payload)))
      const onHandshake = (chunk: Buffer): void => {
        head = head.length === 0 ? chunk : Buffer.concat([head, chunk])
        const end = head.indexOf('\r\n\r\n')
        if (end < 0) return
        if (!head.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 101')) {
          return fail(new Error(`upgrade refused: ${head.subarray(0, head.indexOf('\r\n')).toString()}`))
        }
        tcp.off('data', onHandshake)
        tcp.on('data', (data: Buffer) => reader.push(data))
        if (!socketIo) ready()
        if (end + 4 < head.length) reader.push(head.subarray(end + 4))
      }
      tcp.on('data', onHandshake)
      tcp.once('error', fail)
      tcp.once('connect', () => {
        tcp.write(
          `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        )
      })
    })
  }
}

/** At most `size` tasks at once; the rest wait in order. */
class Limit {
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.running += 1
    try {
      return await task()
    } finally {
      this.running -= 1
      this.waiting.shift()?.()
    }
  }
}
