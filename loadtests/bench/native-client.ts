/**
 * The bench's socket load generator: `native-gen.c`, built at the bench's start and driven from
 * here (connect, windows, storms, close). One C thread on epoll counts the frames, so on a 2-core
 * machine the generator is not what limits a socket capacity; the plans (`scenario.ts`) and the
 * percentiles (`percentiles.ts`) come from Node, and so do a storm's reconnect waits: each
 * socket's are drawn here from the web client's own back-off code (`reconnect-policy.ts`).
 */
import { spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { loadtestsDir } from './child-process'
import { signalGroup, spawnOwned } from '../../gateway/test/support/owned-processes'
import { seededRandom } from '@tradegate/shared'
import { DROP_CLOSE_CODE, type StormPolicy } from './reconnect-policy'
import { planClients, subscriberCounts, topicOfSubscribe, type ClientPlan, type Scenario } from './scenario'
import { socketIoEvent, socketIoWebSocketUrl } from './socketio-framing'
import { MAX_LATENCY_MS, summarizeHistogram, type WindowCount } from './percentiles'

export type ClientProtocol = 'ws' | 'socket.io'

export interface ConnectReport {
  opened: number
  failed: number
  /** Handshakes that failed and were tried again. */
  retried?: number
  ms: number
  perSecond: number
}

/** What the clients saw of one window: frames by publish time, and the generator's own CPU. */
export interface ClientWindow {
  /** Publish times (epoch ms) the window covers, both included. */
  from: number
  to: number
  seconds: number
  raw: WindowCount
  rated: WindowCount
  backlog: number
  /** The generator's CPU as a share of one core; near 100 means the client, not the server, was the limit. */
  clientCpuPercent: number
  socketErrors: number
  /** The generator's longest passes over its ready sockets (ms), see SocketWindow. */
  stallMs?: { p99: number; max: number }
}

export interface StormOptions {
  /** How each socket waits before each attempt; a refused or failed attempt waits again. */
  policy: StormPolicy
  timeoutMs: number
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
/** A socket's waits a storm draws at most: enough to outlast any timeout at the back-off's cap. */
const STORM_MAX_WAITS = 64

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
const CONNECT_CONCURRENCY = 64

/**
 * After a pass over fewer than 256 ready sockets the generator pauses this long (µs) before it
 * waits again, so frames gather and one wake-up and one read serve more of them; a frame arriving
 * meanwhile is read up to that much later, whichever system sent it.
 */
const COALESCE_MICROS = 1000

export interface NativeClientOptions {
  /** ws: base URL, each socket opens `${url}/<uuid>`; socket.io: the server's http URL. */
  url: string
  protocol: ClientProtocol
  clients: number
  scenario: Scenario
  /**
   * How long the fleet may go without a socket opening or receiving its first frame before getting
   * ready fails (a server that stopped answering; a slow one that still answers keeps it waiting).
   */
  readyStallMs?: number
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

/** A window as the generator reports it: its latencies as sparse histograms of [ms, count]. */
type NativeWindow = Omit<ClientWindow, 'raw' | 'rated'> & { raw: NativeCounts; rated: NativeCounts }

function windowCount(counts: NativeCounts): WindowCount {
  const histogram = new Uint32Array(MAX_LATENCY_MS + 1)
  for (const [ms, count] of counts.histogram) histogram[ms] = count
  return { delivered: counts.delivered, latencyMs: summarizeHistogram(histogram) }
}

function clientWindow(native: NativeWindow): ClientWindow {
  return { ...native, raw: windowCount(native.raw), rated: windowCount(native.rated) }
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

/** The client fleet, every socket in the native generator; its plans come from `planClients`. */
export class NativeClientFleet {
  private readonly plans: ClientPlan[]
  private readonly native: NativeProcess
  private readonly started: Promise<unknown>
  /** The plans whose sockets the last connect opened. */
  private openPlans: ClientPlan[] = []
  private connectedAt = performance.now()

  constructor(options: NativeClientOptions) {
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
      String(CONNECT_CONCURRENCY),
      String(options.readyStallMs ?? 30_000),
      String(COALESCE_MICROS),
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
    return this.openPlans.length
  }

  /** Subscribers per topic among the open sockets: what the offered rate is worked out from. */
  subscribers(): ReturnType<typeof subscriberCounts> {
    return subscriberCounts(this.openPlans)
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

  waitUntilAllReceived(timeoutMs: number): Promise<{ ms: number; missing: number }> {
    return this.native.ask(`wait ${timeoutMs}`)
  }

  /** Frames received since the generator started. */
  async frameCount(): Promise<number> {
    return (await this.stats()).frames
  }

  /** The generator's counters: frames read, and its own CPU split into user and kernel time. */
  stats(): Promise<{ frames: number; userMs: number; systemMs: number }> {
    return this.native.ask('stats')
  }

  /**
   * Opens a window at this moment's publish time (the generator's clock, which is the feed's);
   * close it with the returned function.
   */
  async openWindow(): Promise<
    (
      graceMs: number,
      settle?: (from: number, to: number) => Promise<WindowExpectation>,
    ) => Promise<ClientWindow>
  > {
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
   * Drops every socket at once, as a browser sees its gateway go away, and reopens each after the
   * waits its own back-off draws (from one seeded source in plan order, so the waves are the same
   * for every system); the report comes once each has a frame again, or at the timeout. A socket
   * the storm could not reopen is reopened before the next window.
   */
  async reconnectStorm(options: StormOptions): Promise<StormReport> {
    // the dropped sockets had been open since the fleet connected; a failed attempt never opened
    const openForMs = performance.now() - this.connectedAt
    const random = seededRandom(0x5707).next
    const waits = this.plans.map(() => {
      const backoff = options.policy.forSocket(random)
      const socketWaits = [backoff.next(openForMs, DROP_CLOSE_CODE)]
      let total = socketWaits[0]!
      while (total <= options.timeoutMs && socketWaits.length < STORM_MAX_WAITS) {
        const wait = backoff.next(0, undefined)
        socketWaits.push(wait)
        total += wait
      }
      return socketWaits.map((wait) => wait.toFixed(3)).join(' ')
    })
    const report = await this.native.ask<Omit<StormReport, 'policy'>>(
      `storm ${options.timeoutMs} ${STORM_HANDSHAKES}\n${waits.join('\n')}`,
    )
    return { ...report, policy: options.policy.name }
  }

  close(): void {
    this.native.kill()
  }
}
