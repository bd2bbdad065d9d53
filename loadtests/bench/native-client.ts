/**
 * The socket windows' load generator: `native-gen.c`, built at the bench's start and driven from
 * here with the fleet's interface (connect, windows, storms, close). One C thread on epoll counts
 * the frames, so on a 2-core machine the generator is no longer what limits a socket capacity; the
 * plan, the publish-time accounting and the percentiles are the Node fleet's own (`lean-client.ts`,
 * `window-accounting.ts`). Reconnect storms stay on the Node fleet: its reconnect waits come from
 * the shared back-off code, so the native sockets are dropped and the Node fleet reopens them.
 */
import { spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { loadtestsDir } from './child-process'
import { signalGroup, spawnOwned } from '../../gateway/test/support/owned-processes'
import {
  LeanClientFleet,
  type ClientWindow,
  type ConnectReport,
  type LeanClientOptions,
  type StormOptions,
  type StormReport,
} from './lean-client'
import { planClients, subscriberCounts, topicOfSubscribe, type ClientPlan } from './scenario'
import { socketIoEvent, socketIoWebSocketUrl } from './socketio-framing'
import { MAX_LATENCY_MS, summarizeHistogram, type WindowCount } from './window-accounting'

export const NATIVE_GENERATOR_SOURCE = path.join(loadtestsDir, 'bench', 'native-gen.c')
export const NATIVE_GENERATOR_BINARY = path.join(loadtestsDir, 'build', 'native-gen')

let built: string | undefined

/**
 * Compiles the generator with the machine's C compiler (once per process). Built under a temporary
 * name and renamed, so test files building at once never run a half-written binary.
 */
export function buildNativeGenerator(): string {
  if (built) return built
  mkdirSync(path.dirname(NATIVE_GENERATOR_BINARY), { recursive: true })
  const temporary = `${NATIVE_GENERATOR_BINARY}.${process.pid}.tmp`
  const compiler = process.env.CC ?? 'cc'
  const result = spawnSync(compiler, ['-O2', '-o', temporary, NATIVE_GENERATOR_SOURCE, '-lm'], {
    encoding: 'utf8',
  })
  if (result.error) {
    throw new Error(
      `the native load generator needs a C compiler: "${compiler}" could not run (${result.error.message}); install gcc or set CC`,
    )
  }
  if (result.status !== 0) {
    rmSync(temporary, { force: true })
    throw new Error(
      `building ${path.relative(loadtestsDir, NATIVE_GENERATOR_SOURCE)} failed:\n${result.stderr}`,
    )
  }
  renameSync(temporary, NATIVE_GENERATOR_BINARY)
  built = NATIVE_GENERATOR_BINARY
  return built
}

/** The plan as the generator reads it: each client's list test and subscribe frames as sent. */
export function planText(plans: readonly ClientPlan[], socketIo: boolean): string {
  const lines: string[] = []
  for (const plan of plans) {
    lines.push(`c ${plan.ratedTopics.length > 0 ? 1 : 0} ${plan.traded} ${plan.subscribeFrames.length}`)
    for (const frame of plan.subscribeFrames)
      lines.push(`f ${socketIo ? socketIoEvent(frame) : JSON.stringify(frame)}`)
  }
  lines.push('end')
  return `${lines.join('\n')}\n`
}

interface NativeCounts {
  delivered: number
  histogram: Array<[number, number]>
}

/**
 * Handshakes the native generator has in flight at once: few enough that the server's accept queue
 * (128 where somaxconn is old) and its upgrade work never face the whole fleet at one instant.
 */
export const NATIVE_CONNECT_CONCURRENCY = 64
/**
 * How long the fleet may go without a socket opening or receiving its first frame before getting
 * ready fails (a server that stopped answering; a slow one that still answers keeps it waiting).
 */
export const NATIVE_READY_STALL_MS = 30_000

/**
 * After a pass over fewer than 256 ready sockets the generator pauses this long (µs) before it
 * waits again, so frames gather and one wake-up and one read serve more of them; a frame arriving
 * meanwhile is read up to that much later, whichever system sent it.
 */
export const NATIVE_COALESCE_MICROS = 1000

export interface NativeClientOptions extends LeanClientOptions {
  /** See NATIVE_COALESCE_MICROS; 0 reads as soon as a socket is ready. */
  coalesceMicros?: number
}

/**
 * What a closed window waits for: the frames published in it (raw, and list frames; -1 for a kind
 * whose count cannot be known, such as lists at a rate), after at least `minGraceMs`. The grace
 * then ends as soon as they are all in, or at its bound.
 */
export interface WindowExpectation {
  raw: number
  rated: number
  minGraceMs: number
}

interface NativeWindow {
  from: number
  to: number
  seconds: number
  raw: NativeCounts
  rated: NativeCounts
  backlog: number
  cpuPercent: number
  socketErrors: number
  stallMs: { p99: number; max: number }
}

function windowCount(counts: NativeCounts): WindowCount {
  const histogram = new Uint32Array(MAX_LATENCY_MS + 1)
  for (const [ms, count] of counts.histogram) histogram[ms] = count
  return { delivered: counts.delivered, latencyMs: summarizeHistogram(histogram) }
}

/** What the generator saw of one window, in the fleet's shape; its CPU is the C process's own. */
export function clientWindow(native: NativeWindow): ClientWindow {
  return {
    from: native.from,
    to: native.to,
    seconds: native.seconds,
    raw: windowCount(native.raw),
    rated: windowCount(native.rated),
    backlog: native.backlog,
    clientCpuPercent: native.cpuPercent,
    socketErrors: native.socketErrors,
    stallMs: native.stallMs,
  }
}

/** The generator's process: one command line in, one JSON line out, one command at a time. */
class NativeProcess {
  private readonly child: ChildProcessWithoutNullStreams
  private readonly lines: AsyncIterator<string>
  private queue: Promise<unknown> = Promise.resolve()
  private stderr = ''
  exited = false

  constructor(binary: string, args: string[]) {
    this.child = spawnOwned(binary, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
    }) as ChildProcessWithoutNullStreams
    this.child.stderr.on(
      'data',
      (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-2000)),
    )
    this.child.on('exit', () => (this.exited = true))
    // the harness may end the process before reading every answer
    this.child.stdin.on('error', () => undefined)
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]()
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  /** Sends `text` (one or more lines) and returns the next answer. */
  ask<T>(text: string): Promise<T> {
    const next = this.queue.then(async () => {
      this.child.stdin.write(text.endsWith('\n') ? text : `${text}\n`)
      const line = await this.lines.next()
      if (line.done) throw new Error(`native generator exited: ${this.stderr.trim() || 'no message'}`)
      const answer = JSON.parse(line.value) as T & { error?: string }
      if (answer.error) throw new Error(`native generator: ${answer.error}`)
      return answer
    })
    this.queue = next.catch(() => undefined)
    return next
  }

  kill(): void {
    if (!this.exited && this.child.pid !== undefined) signalGroup(this.child.pid, 'SIGKILL')
  }
}

/**
 * The fleet's interface over the native generator. The plans are the Node fleet's
 * (`planClients`), so both face the same fan-out; each socket's subscribe frames are sent as the
 * Node fleet sends them.
 */
export class NativeClientFleet {
  private readonly plans: ClientPlan[]
  private readonly native: NativeProcess
  private readonly started: Promise<unknown>
  /** The plans whose sockets the last connect opened. */
  private openPlans: ClientPlan[] = []
  /** While a storm's sockets are open, the Node fleet holds them. */
  private stormFleet: LeanClientFleet | undefined
  private connectedAt = performance.now()

  constructor(private readonly options: NativeClientOptions) {
    this.plans = planClients(options.scenario, options.clients)
    const socketIo = options.protocol === 'socket.io'
    const url = socketIo ? socketIoWebSocketUrl(options.url) : new URL(options.url)
    const pathname = socketIo ? `${url.pathname}${url.search}` : url.pathname.replace(/\/+$/, '')
    this.native = new NativeProcess(buildNativeGenerator(), [
      url.hostname,
      url.port || '80',
      pathname,
      options.protocol,
      socketIo ? '0' : '1',
      String(options.connectConcurrency ?? NATIVE_CONNECT_CONCURRENCY),
      String(options.handshakeTimeoutMs ?? NATIVE_READY_STALL_MS),
      String(options.coalesceMicros ?? NATIVE_COALESCE_MICROS),
    ])
    this.started = this.native.ask(planText(this.plans, socketIo))
  }

  /** The generator's process id: what the bench reads its CPU from, beside the window's own figure. */
  get pid(): number | undefined {
    return this.native.pid
  }

  get topicCount(): number {
    return new Set(this.plans.flatMap((plan) => plan.subscribeFrames.map(topicOfSubscribe))).size
  }

  get openSockets(): number {
    return this.stormFleet ? this.stormFleet.openSockets : this.openPlans.length
  }

  subscribers(): ReturnType<typeof subscriberCounts> {
    return this.stormFleet ? this.stormFleet.subscribers() : subscriberCounts(this.openPlans)
  }

  /**
   * Opens every plan's socket and resolves once each is ready: its upgrade answered, its subscribe
   * frames sent and a first frame received. A socket that fails is opened again (three attempts); if
   * the fleet cannot be made whole this rejects, naming how many sockets were ready, in their
   * handshake or given up, so no window is ever measured over part of the fleet.
   */
  async connect(): Promise<ConnectReport> {
    await this.started
    this.openPlans = []
    const answer = await this.native.ask<{ opened: number; retried: number; ms: number }>('connect')
    this.openPlans = this.plans
    this.connectedAt = performance.now()
    return {
      opened: answer.opened,
      failed: 0,
      retried: answer.retried,
      ms: answer.ms,
      perSecond: answer.opened / (answer.ms / 1000),
    }
  }

  async waitUntilAllReceived(timeoutMs: number): Promise<{ ms: number; missing: number }> {
    await this.backFromStorm()
    return this.native.ask(`wait ${timeoutMs}`)
  }

  /** Frames received since the generator started (storms' frames not included). */
  async frameCount(): Promise<number> {
    return (await this.stats()).frames
  }

  /** The generator's counters: frames read, and its own CPU split into user and kernel time. */
  async stats(): Promise<{ frames: number; userMs: number; systemMs: number }> {
    await this.backFromStorm()
    return this.native.ask('stats')
  }

  /**
   * Opens a window at this moment's publish time (the generator's clock, which is the feed's);
   * close it with the returned function, as with the Node fleet.
   */
  async openWindow(): Promise<
    (
      graceMs: number,
      settle?: (from: number, to: number) => Promise<WindowExpectation>,
    ) => Promise<ClientWindow>
  > {
    await this.backFromStorm()
    // the generator opens the window only once every socket is ready again (one the server closed
    // is reopened first), or answers an error: never a window over part of the fleet
    const opened = await this.native.ask<{ sockets: number; reconnected: number }>('open')
    if (opened.sockets !== this.plans.length)
      throw new Error(
        `native generator opened a window over ${opened.sockets} of ${this.plans.length} sockets`,
      )
    this.openPlans = this.plans
    return async (graceMs, settle) => {
      if (!settle) return clientWindow(await this.native.ask<NativeWindow>(`close ${Math.round(graceMs)}`))
      const { from, to } = await this.native.ask<{ from: number; to: number }>('end')
      const expected = await settle(from, to)
      const minGraceMs = Math.min(expected.minGraceMs, graceMs)
      return clientWindow(
        await this.native.ask<NativeWindow>(
          `settle ${Math.round(minGraceMs)} ${Math.round(graceMs)} ${expected.raw} ${expected.rated}`,
        ),
      )
    }
  }

  /**
   * Drops every native socket at once and lets the Node fleet reopen them by `options.policy`; the
   * next window reconnects the native sockets first.
   */
  async reconnectStorm(options: StormOptions): Promise<StormReport> {
    if (!this.stormFleet) {
      await this.native.ask('drop')
      this.openPlans = []
      this.stormFleet = new LeanClientFleet(this.options, this.connectedAt)
    }
    return this.stormFleet.reconnectStorm(options)
  }

  private async backFromStorm(): Promise<void> {
    if (!this.stormFleet) return
    this.stormFleet.close()
    this.stormFleet = undefined
    await this.connect()
  }

  close(): void {
    this.stormFleet?.close()
    this.stormFleet = undefined
    this.native.kill()
  }
}
