/**
 * The reconnect storm's clients: many sockets in one process, WebSocket on raw TCP sockets, with
 * Socket.IO's packets spoken over it by hand for the Socket.IO servers, each reopened by its own
 * back-off after a drop. Windows and rounds are the native generator's (native-client.ts); a storm
 * stays here because its waits come from the web client's own back-off code (reconnect-policy.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { connect as connectTcp } from 'node:net'
import { planClients, subscriberCounts, topicOfSubscribe, type ClientPlan, type Scenario } from './scenario'
import { seededRandom } from '@tradegate/shared'
import type { WindowCount } from './window-accounting'
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
  handshakeTimeoutMs?: number
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

/** Handshakes a storm has in flight at once: the rest wait their turn, as behind a browser's own limit. */
const STORM_HANDSHAKES = 1000

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
  close(): void
}

export class LeanClientFleet {
  private readonly plans: ClientPlan[]
  private sockets: ClientSocket[] = []
  private awaiting = 0
  private allReceived: (() => void) | undefined

  /** `connectedAt`: when the sockets a storm drops were opened (performance.now()), by the native generator. */
  constructor(
    private readonly options: LeanClientOptions,
    private readonly connectedAt: number,
  ) {
    this.plans = planClients(options.scenario, options.clients)
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
    const handshakes = new Limit(STORM_HANDSHAKES)
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
    for (const socket of this.sockets) socket.close()
    this.sockets = []
    this.awaiting = 0
  }

  private onSubscribed(socket: ClientSocket): void {
    socket.awaitingFirstFrame = true
    this.awaiting += 1
  }

  private onFrame(socket: ClientSocket): void {
    if (!socket.awaitingFirstFrame) return
    socket.awaitingFirstFrame = false
    this.awaiting -= 1
    if (this.awaiting === 0) this.allReceived?.()
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
        // a socket that fails after its handshake shows as one that never gets its frame again
        tcp.on('error', () => undefined)
        subscribe()
        resolve(socket)
      }
      const onText = socketIo
        ? (payload: Buffer): void => {
            const packet = readSocketIoPacket(payload)
            if (packet.kind === 'event') this.onFrame(socket)
            else if (packet.kind === 'ping') tcp.write(textFrame(SOCKET_IO_PONG))
            else if (packet.kind === 'open') tcp.write(textFrame(SOCKET_IO_CONNECT))
            else if (packet.kind === 'connected') ready()
            else if (packet.kind === 'closed')
              fail(new Error(`socket.io closed: ${payload.toString().slice(0, 200)}`))
          }
        : (): void => this.onFrame(socket)
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
