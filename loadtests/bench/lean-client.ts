/**
 * Many client sockets in one process, doing as little as possible per frame so the load generator
 * is not the bottleneck: count every frame, read the publish time of one frame in `sampleEvery`.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { connect as connectTcp } from 'node:net'
import { io as connectSocketIo } from 'socket.io-client'
import { planClients, seededRandom, topicOfSubscribe, type ClientPlan, type Scenario } from './scenario'

export type ClientProtocol = 'ws' | 'socket.io'

export interface LeanClientOptions {
  /** ws: base URL, each socket opens `${url}/<uuid>`; socket.io: the server's http URL. */
  url: string
  protocol: ClientProtocol
  clients: number
  scenario: Scenario
  /** Read the publish time of one frame in this many; the rest are only counted. */
  sampleEvery?: number
  /** Sockets being opened at once during the initial connect. */
  connectConcurrency?: number
  /** Sockets being opened at once during the reconnect storm. */
  stormConcurrency?: number
  handshakeTimeoutMs?: number
}

export interface StormOptions {
  /** Each socket reconnects at a random moment in this span, like browsers backing off with jitter. */
  spreadMs: number
  timeoutMs: number
}

export interface LatencySummary {
  samples: number
  p50: number
  p99: number
  p999: number
  max: number
}

export interface ConnectReport {
  opened: number
  failed: number
  ms: number
  perSecond: number
}

export interface WindowReport {
  seconds: number
  deliveries: number
  deliveriesPerSecond: number
  /** What the clients would receive per second if the server kept up with every tick. */
  expectedPerSecond: number
  latencyMs: LatencySummary
  /** CPU of this whole process as a share of one core; near 100 means the client, not the server, was the limit. */
  clientCpuPercent: number
  socketErrors: number
}

export interface StormReport {
  sockets: number
  failed: number
  /** The span the reconnects were spread over. */
  spreadMs: number
  /** From dropping every socket to the last one receiving a frame after it resubscribed. */
  ms: number
  /** Sockets that never got a frame after resubscribing before the timeout. */
  missing: number
}

const TS_MARKER = Buffer.from('"ts":')
const CLOSE_BRACE = 0x7d
const MAX_LATENCY_MS = 120_000

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
}

/**
 * Publish time of a server frame without parsing it: the `"ts":` nearest the end, accepted only when
 * nothing but `}` follows the number (so it is the top-level field, not one inside `data`). Any
 * other layout falls back to JSON.parse.
 */
export function extractPublishTs(frame: Buffer): number | undefined {
  const at = frame.lastIndexOf(TS_MARKER)
  if (at >= 0) {
    let i = at + TS_MARKER.length
    while (isSpace(frame[i])) i++
    const start = i
    while (i < frame.length && ((frame[i]! >= 0x30 && frame[i]! <= 0x39) || frame[i] === 0x2e)) i++
    const end = i
    while (isSpace(frame[i])) i++
    const closesFrame = frame[i] === CLOSE_BRACE
    i++
    while (isSpace(frame[i])) i++
    if (end > start && closesFrame && i >= frame.length) return Number(frame.toString('latin1', start, end))
  }
  try {
    const parsed = JSON.parse(frame.toString()) as { ts?: unknown }
    return typeof parsed.ts === 'number' ? parsed.ts : undefined
  } catch {
    return undefined
  }
}

/** Percentiles over a histogram of whole milliseconds. */
export function summarizeHistogram(histogram: Uint32Array): LatencySummary {
  let samples = 0
  let max = 0
  for (let ms = 0; ms < histogram.length; ms++) {
    if (histogram[ms]! > 0) max = ms
    samples += histogram[ms]!
  }
  const at = (quantile: number): number => {
    if (samples === 0) return Number.NaN
    const rank = Math.ceil(quantile * samples)
    let seen = 0
    for (let ms = 0; ms < histogram.length; ms++) {
      seen += histogram[ms]!
      if (seen >= rank) return ms
    }
    return max
  }
  return { samples, p50: at(0.5), p99: at(0.99), p999: at(0.999), max: samples === 0 ? Number.NaN : max }
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
  /** True from (re)subscribing until the first frame arrives. */
  awaitingFirstFrame: boolean
  close(): void
}

export class LeanClientFleet {
  private readonly plans: ClientPlan[]
  private readonly sampleEvery: number
  private sockets: ClientSocket[] = []
  private awaiting = 0
  private allReceived: (() => void) | undefined
  private windowOpen = false
  private windowFrames = 0
  private histogram = new Uint32Array(MAX_LATENCY_MS + 1)
  private socketErrors = 0
  private closing = false
  totalFrames = 0

  constructor(private readonly options: LeanClientOptions) {
    this.plans = planClients(options.scenario, options.clients)
    this.sampleEvery = Math.max(1, options.sampleEvery ?? 8)
  }

  get expectedPerSecond(): number {
    return this.plans.reduce((sum, plan) => sum + plan.expectedPerSecond, 0)
  }

  /** Distinct topics the plans subscribe to: what a bus needs to subscribe, however many sockets. */
  get topicCount(): number {
    return new Set(this.plans.flatMap((plan) => plan.subscribeFrames.map(topicOfSubscribe))).size
  }

  get openSockets(): number {
    return this.sockets.length
  }

  /** Opens every socket; those not started within `deadlineMs` count as failed. */
  async connect(deadlineMs = 60_000): Promise<ConnectReport> {
    return this.openAll(this.options.connectConcurrency ?? 200, performance.now() + deadlineMs, () => 0)
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

  startWindow(): () => WindowReport {
    this.histogram.fill(0)
    this.windowFrames = 0
    this.socketErrors = 0
    this.windowOpen = true
    const started = performance.now()
    const cpuStart = process.cpuUsage()
    return () => {
      this.windowOpen = false
      const seconds = (performance.now() - started) / 1000
      const cpu = process.cpuUsage(cpuStart)
      return {
        seconds,
        deliveries: this.windowFrames,
        deliveriesPerSecond: this.windowFrames / seconds,
        expectedPerSecond: this.expectedPerSecond,
        latencyMs: summarizeHistogram(this.histogram),
        clientCpuPercent: ((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100,
        socketErrors: this.socketErrors,
      }
    }
  }

  /**
   * Drops every socket at once, then reopens each at a random moment within `spreadMs` (in plan
   * order, so the waves are the same for every system) and waits until each has a frame again.
   */
  async reconnectStorm(options: StormOptions): Promise<StormReport> {
    const started = performance.now()
    this.closeAll()
    const random = seededRandom(0x5707)
    const offsets = this.plans.map(() => random() * options.spreadMs).sort((a, b) => a - b)
    const opened = await this.openAll(
      this.options.stormConcurrency ?? 1000,
      started + options.timeoutMs,
      (index) => started + offsets[index]!,
    )
    const remaining = Math.max(1, options.timeoutMs - (performance.now() - started))
    const { missing } = await this.waitUntilAllReceived(remaining)
    return {
      sockets: opened.opened,
      failed: opened.failed,
      spreadMs: options.spreadMs,
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

  private onFrame(socket: ClientSocket, readTs: () => number | undefined): void {
    this.totalFrames += 1
    if (socket.awaitingFirstFrame) {
      socket.awaitingFirstFrame = false
      this.awaiting -= 1
      if (this.awaiting === 0) this.allReceived?.()
    }
    if (!this.windowOpen) return
    this.windowFrames += 1
    if (this.windowFrames % this.sampleEvery !== 0) return
    const ts = readTs()
    if (ts === undefined) return
    const latency = Math.min(MAX_LATENCY_MS, Math.max(0, Math.round(Date.now() - ts)))
    this.histogram[latency]! += 1
  }

  private onSocketError(): void {
    if (!this.closing) this.socketErrors += 1
  }

  private openOne(plan: ClientPlan): Promise<ClientSocket> {
    return this.options.protocol === 'ws' ? this.openWs(plan) : this.openSocketIo(plan)
  }

  /**
   * A WebSocket client on a bare TCP socket: the upgrade request by hand, then server frames are
   * walked by their headers without copying or decoding, so one core can count far more frames
   * than the `ws` client allows. Pings are answered so the gateway's heartbeat keeps the socket.
   */
  private openWs(plan: ClientPlan): Promise<ClientSocket> {
    const url = new URL(`${this.options.url}/${randomUUID()}`)
    const tcp = connectTcp({ host: url.hostname, port: Number(url.port || 80), noDelay: true })
    const socket: ClientSocket = { awaitingFirstFrame: false, close: () => tcp.destroy() }
    const reader = new ServerFrameReader(
      (payload) => this.onFrame(socket, () => extractPublishTs(payload)),
      (payload) => tcp.write(maskedFrame(OPCODE_PONG, payload)),
    )
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
      const onHandshake = (chunk: Buffer): void => {
        head = head.length === 0 ? chunk : Buffer.concat([head, chunk])
        const end = head.indexOf('\r\n\r\n')
        if (end < 0) return
        if (!head.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 101')) {
          return fail(new Error(`upgrade refused: ${head.subarray(0, head.indexOf('\r\n')).toString()}`))
        }
        clearTimeout(timer)
        tcp.off('data', onHandshake)
        tcp.off('error', fail)
        tcp.on('data', (data: Buffer) => reader.push(data))
        tcp.on('error', () => this.onSocketError())
        this.onSubscribed(socket)
        tcp.write(
          Buffer.concat(
            plan.subscribeFrames.map((frame) => maskedFrame(OPCODE_TEXT, Buffer.from(JSON.stringify(frame)))),
          ),
        )
        if (end + 4 < head.length) reader.push(head.subarray(end + 4))
        resolve(socket)
      }
      tcp.on('data', onHandshake)
      tcp.once('error', fail)
      tcp.once('connect', () => {
        tcp.write(
          `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        )
      })
    })
  }

  private openSocketIo(plan: ClientPlan): Promise<ClientSocket> {
    const client = connectSocketIo(this.options.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      timeout: this.options.handshakeTimeoutMs ?? 15_000,
    })
    const socket: ClientSocket = { awaitingFirstFrame: false, close: () => client.disconnect() }
    // socket.io-client always JSON.parses the packet; reading ts is then a property access.
    client.on('message', (frame: { ts?: unknown }) =>
      this.onFrame(socket, () => (typeof frame.ts === 'number' ? frame.ts : undefined)),
    )
    return new Promise((resolve, reject) => {
      client.once('connect', () => {
        client.off('connect_error', reject)
        client.on('connect_error', () => this.onSocketError())
        this.onSubscribed(socket)
        for (const frame of plan.subscribeFrames) client.send(frame)
        resolve(socket)
      })
      client.once('connect_error', (error) => {
        client.disconnect()
        reject(error)
      })
    })
  }
}
