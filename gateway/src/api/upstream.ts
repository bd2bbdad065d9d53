import { connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { Pool, type Dispatcher, type FormData } from 'undici'
import type { Metrics } from '../plugins/app/metrics'
import { upstreamHttpUrl } from '../config'

// The one HTTP client to the exchange backend: bounded timeouts, GET-only retries, errors turned into 502/504.

export interface UpstreamOptions {
  url: string
  connectTimeoutMs: number
  responseTimeoutMs: number
  getRetries: number
}

export interface UpstreamRequest {
  method: 'GET' | 'POST'
  /** path and query, already checked and re-encoded */
  path: string
  headers: Record<string, string>
  body?: string | FormData
  /** route label for metrics */
  route: string
}

export interface UpstreamResponse {
  status: number
  headers: Record<string, string | string[]>
  body: Buffer
  /** time from the first attempt to the last byte */
  ms: number
}

export type UpstreamFailure = 'connect' | 'timeout' | 'reset' | 'too_large'

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    readonly ms: number,
    cause: unknown,
  ) {
    super(`upstream ${kind}`, { cause })
  }

  get statusCode(): 502 | 504 {
    return this.kind === 'timeout' ? 504 : 502
  }
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // recomputed for the body the gateway sends
  'content-length',
])

const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])
const RESET_FAILURES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])
const TIMEOUT_FAILURES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

const RETRY_BACKOFF_MS = 30
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024

function classifyFailure(error: unknown): UpstreamFailure {
  const code = (error as { code?: string } | null)?.code ?? ''
  if (CONNECT_FAILURES.has(code)) return 'connect'
  if (TIMEOUT_FAILURES.has(code)) return 'timeout'
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return 'too_large'
  if (RESET_FAILURES.has(code)) return 'reset'
  return 'connect'
}

/** Response headers minus hop-by-hop ones, including any the upstream listed in its Connection header. */
function endToEndHeaders(headers: Record<string, string | string[] | undefined>) {
  const listed = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
  const kept: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.includes(name)) continue
    kept[name] = value
  }
  return kept
}

const PROBE_INTERVAL_MS = 5000

interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** Collects one answer in memory; undici's dispatch API skips the stream, promise and async-hook layers of `request`. */
class CollectingHandler implements Dispatcher.DispatchHandler {
  private status = 0
  private headers: RawAnswer['headers'] = {}
  private readonly chunks: Buffer[] = []

  constructor(
    private readonly resolve: (answer: RawAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  // undici treats a handler without this method as one written for its older callback API
  onRequestStart(): void {}

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: RawAnswer['headers'],
  ): void {
    this.status = statusCode
    this.headers = headers
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk)
  }

  onResponseEnd(): void {
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks)
    this.resolve({ status: this.status, headers: this.headers, body })
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.reject(error)
  }
}

export class Upstream {
  private readonly pool: Pool
  private readonly basePath: string
  private readonly probeTimer: NodeJS.Timeout
  /** labelled duration children by route, so a request does not hash its label set again */
  private readonly durations = new Map<string, { observe(seconds: number): void }>()
  /** false after a failed connection until a connection or an answer succeeds again */
  reachable = true

  constructor(
    private readonly options: UpstreamOptions,
    private readonly metrics: Metrics,
  ) {
    const url = new URL(upstreamHttpUrl(options.url))
    this.basePath = url.pathname.replace(/\/$/, '')
    this.pool = new Pool(url.origin, {
      connections: 256,
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.responseTimeoutMs,
      bodyTimeout: options.responseTimeoutMs,
      keepAliveTimeout: 10_000,
      maxResponseSize: MAX_RESPONSE_BYTES,
    })
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
    // a bare TCP connect keeps readiness current while no requests flow
    this.probeTimer = setInterval(() => this.probe(url.hostname, port), PROBE_INTERVAL_MS).unref()
    this.probe(url.hostname, port)
  }

  private probe(host: string, port: number): void {
    const socket = connect({ host, port, timeout: this.options.connectTimeoutMs })
    socket.once('connect', () => {
      this.reachable = true
      socket.destroy()
    })
    socket.once('timeout', () => socket.destroy(new Error('connect timeout')))
    socket.once('error', () => {
      this.reachable = false
    })
  }

  /** GET is retried on connection failures and 503; POST is sent exactly once. */
  async request(request: UpstreamRequest): Promise<UpstreamResponse> {
    const started = performance.now()
    const retries = request.method === 'GET' ? this.options.getRetries : 0
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await this.send(request)
        if (answer.status === 503 && attempt < retries) {
          await sleep(RETRY_BACKOFF_MS * 2 ** attempt)
          continue
        }
        this.reachable = true
        const ms = performance.now() - started
        this.durationOf(request.route).observe(ms / 1000)
        if (answer.status >= 500) this.metrics.upstreamErrors.inc({ kind: 'server_error' })
        return { status: answer.status, headers: endToEndHeaders(answer.headers), body: answer.body, ms }
      } catch (error) {
        const kind = classifyFailure(error)
        // a timeout is never retried: each attempt would wait the full response timeout again
        if (attempt < retries && (kind === 'connect' || kind === 'reset')) {
          await sleep(RETRY_BACKOFF_MS * 2 ** attempt)
          continue
        }
        const ms = performance.now() - started
        if (kind === 'connect') this.reachable = false
        this.metrics.upstreamErrors.inc({ kind })
        this.durationOf(request.route).observe(ms / 1000)
        throw new UpstreamError(kind, ms, error)
      }
    }
  }

  private durationOf(route: string) {
    let duration = this.durations.get(route)
    if (!duration) this.durations.set(route, (duration = this.metrics.upstreamDuration.labels({ route })))
    return duration
  }

  private send(request: UpstreamRequest): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      this.pool.dispatch(
        {
          method: request.method,
          path: this.basePath + request.path,
          headers: request.headers,
          body: request.body,
        },
        new CollectingHandler(resolve, reject),
      )
    })
  }

  async close(): Promise<void> {
    clearInterval(this.probeTimer)
    await this.pool.close()
  }
}
