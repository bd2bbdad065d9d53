/**
 * Many client sockets in one process, doing as little as possible per frame so the load generator
 * is not the bottleneck: count every frame, read the publish time of one frame in `sampleEvery`.
 */
import { randomUUID } from 'node:crypto'
import { WebSocket } from 'ws'
import { io as connectSocketIo } from 'socket.io-client'
import { planClients, type ClientPlan, type Scenario } from './scenario'

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

  get openSockets(): number {
    return this.sockets.length
  }

  /** Opens every socket; those not started within `deadlineMs` count as failed. */
  async connect(deadlineMs = 60_000): Promise<ConnectReport> {
    return this.openAll(this.options.connectConcurrency ?? 200, performance.now() + deadlineMs)
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

  /** Drops every socket at once, reopens them all and waits until each has a frame again. */
  async reconnectStorm(timeoutMs = 45_000): Promise<StormReport> {
    const started = performance.now()
    this.closeAll()
    const opened = await this.openAll(this.options.stormConcurrency ?? 1000, started + timeoutMs)
    const remaining = Math.max(1, timeoutMs - (performance.now() - started))
    const { missing } = await this.waitUntilAllReceived(remaining)
    return { sockets: opened.opened, failed: opened.failed, ms: performance.now() - started, missing }
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

  private async openAll(concurrency: number, deadline: number): Promise<ConnectReport> {
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
        const plan = this.plans[next++]!
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

  private openWs(plan: ClientPlan): Promise<ClientSocket> {
    const frames = plan.subscribeFrames.map((frame) => JSON.stringify(frame))
    const ws = new WebSocket(`${this.options.url}/${randomUUID()}`, {
      perMessageDeflate: false,
      skipUTF8Validation: true,
      handshakeTimeout: this.options.handshakeTimeoutMs ?? 15_000,
    })
    const socket: ClientSocket = { awaitingFirstFrame: false, close: () => ws.terminate() }
    ws.on('message', (data: Buffer) => this.onFrame(socket, () => extractPublishTs(data)))
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        ws.off('error', reject)
        ws.on('error', () => this.onSocketError())
        this.onSubscribed(socket)
        for (const frame of frames) ws.send(frame)
        resolve(socket)
      })
      ws.once('error', reject)
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
