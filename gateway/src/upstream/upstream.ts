import { get as httpGet, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { get as httpsGet } from 'node:https'
import { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import { Pool, RetryAgent } from './undici-parts'
import type { Metrics } from '../plugins/app/metrics'
import { upstreamHttpUrl } from '../config'

// The one HTTP client to the exchange backend: bounded timeouts, GET-only retries, errors turned into 502/504.

export interface UpstreamOptions {
  url: string
  connectTimeoutMs: number
  responseTimeoutMs: number
  getRetries: number
  /** failed attempts in a row that open the circuit */
  breakerFailures: number
}

export interface UpstreamRequest {
  method: 'GET' | 'POST'
  /** path and query, checked and as the client wrote them */
  path: string
  headers: Record<string, string>
  /** the client's body bytes, or an upload's checked parts rebuilt as they are read (sent chunked) */
  body?: Buffer | Readable
  /** route label for metrics */
  route: string
  /** how long to wait for the answer, when not the deployment's UPSTREAM_TIMEOUT_MS */
  timeoutMs?: number
}

export interface UpstreamResponse {
  status: number
  headers: Record<string, string | string[]>
  body: Buffer
  /** time from the first attempt to the last byte */
  ms: number
}

/**
 * `open`: not sent at all, as the upstream is known down (see `Upstream.call`); `body`: the request's own
 * streamed body failed on its way (an upload refused after it began), which says nothing of the upstream
 */
export type UpstreamFailure = 'connect' | 'timeout' | 'reset' | 'too_large' | 'open' | 'body'

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    readonly ms: number,
    cause: unknown,
  ) {
    super(`upstream ${kind}`, { cause })
  }

  get statusCode(): 502 | 503 | 504 {
    if (this.kind === 'open') return 503
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

/** The first retry waits this long, each later one twice the one before. */
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
  // once per proxied answer: a keep-alive upstream lists only a header that is dropped anyway, so the
  // list is split (about 0.5 us, most of this function) only when it says something else
  const connection = headers.connection
  const listed =
    connection === undefined || connection === 'keep-alive'
      ? null
      : String(connection)
          .toLowerCase()
          .split(',')
          .map((name) => name.trim())
  const kept: Record<string, string | string[]> = {}
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined || HOP_BY_HOP.has(name) || (listed !== null && listed.includes(name))) continue
    kept[name] = value
  }
  return kept
}

const PROBE_INTERVAL_MS = 5000
/**
 * After a failed attempt, and while the upstream is known down, the probe runs this often: to confirm
 * a failure before the circuit opens, and to let calls through again once it answers.
 */
const DOWN_PROBE_INTERVAL_MS = 1000
/**
 * An upstream that has not answered the probe's GET in this long is frozen, even if it accepts
 * connections. A healthy upstream answers its root in milliseconds; the circuit opens only after
 * several in a row, so one slow answer costs nothing.
 */
const PROBE_TIMEOUT_MS = 2000
/** What a call refused while the upstream is down is told to wait, in seconds: about one probe round. */
export const UPSTREAM_DOWN_RETRY_AFTER_S = 5

export const UPSTREAM_UNREACHABLE = 'upstream unreachable'
export const UPSTREAM_NOT_ANSWERING = 'upstream not answering'

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
  private done: ((error: Error | null, answer?: RawAnswer) => void) | null

  constructor(done: (error: Error | null, answer?: RawAnswer) => void) {
    this.done = done
  }

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
    this.finish(null, { status: this.status, headers: this.headers, body })
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish(error)
  }

  /** Each answer or failure is told once, as a settled promise would be. */
  finish(error: Error | null, answer?: RawAnswer): void {
    const done = this.done
    this.done = null
    done?.(error, answer)
  }
}

/**
 * GETs go through undici's RetryAgent: retried on 503 and on a failed or reset connection, 30 ms then
 * doubling, never on a timeout (each attempt would wait the full response timeout again). A
 * Retry-After is honoured only up to the longest of those waits. After the last attempt a 503 is
 * passed on as it came, and a failure with its own error code.
 */
function retryingGets(pool: Pool, retries: number): Dispatcher {
  if (retries === 0) return pool
  return new RetryAgent(pool, {
    maxRetries: retries,
    minTimeout: RETRY_BACKOFF_MS,
    timeoutFactor: 2,
    maxTimeout: RETRY_BACKOFF_MS * 2 ** (retries - 1),
    methods: ['GET'],
    statusCodes: [503],
    errorCodes: [...CONNECT_FAILURES, ...RESET_FAILURES],
    throwOnError: false,
  })
}

export class Upstream {
  private readonly pool: Pool
  /** the pool behind GET retries; a POST is sent on the pool itself, exactly once */
  private readonly gets: Dispatcher
  private readonly basePath: string
  private probeTimer: NodeJS.Timeout | undefined
  private readonly probeUrl: string
  /**
   * false after `breakerFailures` failed attempts in a row (connections refused, calls timed out,
   * probes unanswered), until the probe is answered again: the circuit is then open, and calls are
   * refused at once (`call`) instead of each waiting its timeout. One refused connection, one call
   * past its timeout, is a blip: the probe runs again within a second to confirm it.
   */
  reachable = true
  /** failed attempts since the last answer */
  private failuresInARow = 0
  /** why it is not reachable */
  unreachableReason: string = UPSTREAM_UNREACHABLE
  private probing: ClientRequest | null = null
  private closed = false
  private readonly backListeners = new Set<() => void>()

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
    this.gets = retryingGets(this.pool, options.getRetries)
    // a GET, not a bare connect: a frozen upstream accepts connections but answers nothing; any
    // answer, whatever its status, proves the upstream alive
    this.probeUrl = `${url.origin}${this.basePath}/`
    this.probe()
  }

  /** The next probe: often while the upstream is down, as only a probe lets calls through again. */
  private scheduleProbe(): void {
    clearTimeout(this.probeTimer)
    if (this.closed) return
    const interval = this.reachable && this.failuresInARow === 0 ? PROBE_INTERVAL_MS : DOWN_PROBE_INTERVAL_MS
    this.probeTimer = setTimeout(() => this.probe(), interval).unref()
  }

  private probe(): void {
    if (this.probing || this.closed) return
    const get = this.probeUrl.startsWith('https:') ? httpsGet : httpGet
    const options: RequestOptions = { timeout: PROBE_TIMEOUT_MS, agent: false }
    const request = get(this.probeUrl, options, (response: IncomingMessage) => {
      response.resume()
      this.probing = null
      this.answered()
      this.scheduleProbe()
      request.destroy()
    })
    this.probing = request
    let timedOut = false
    request.once('timeout', () => {
      timedOut = true
      request.destroy(new Error('probe timeout'))
    })
    request.once('error', () => {
      if (this.probing !== request) return
      this.probing = null
      this.failed(timedOut ? UPSTREAM_NOT_ANSWERING : UPSTREAM_UNREACHABLE)
      this.scheduleProbe()
    })
  }

  /** Any answer, whatever its status: the upstream is there. */
  private answered(): void {
    this.failuresInARow = 0
    this.setReachable(true)
  }

  /** One failed attempt: the circuit opens at `breakerFailures` in a row; until then the probe confirms soon. */
  private failed(reason: string): void {
    this.failuresInARow++
    if (this.failuresInARow >= this.options.breakerFailures) this.setReachable(false, reason)
    else if (!this.probing) this.scheduleProbe()
  }

  /**
   * Calls `listener` each time the upstream answers again after it was known down, so what waits on
   * its own clock (the feed's next connect) can try at once. Returns the unsubscribe.
   */
  onBackUp(listener: () => void): () => void {
    this.backListeners.add(listener)
    return () => this.backListeners.delete(listener)
  }

  private setReachable(reachable: boolean, reason = this.unreachableReason): void {
    if (reachable === this.reachable && reason === this.unreachableReason) return
    const opened = this.reachable && !reachable
    const closed = !this.reachable && reachable
    this.reachable = reachable
    this.unreachableReason = reason
    this.metrics.upstreamUp.set(reachable ? 1 : 0)
    // the next probe comes sooner now that calls wait on it
    if (opened && !this.probing) this.scheduleProbe()
    if (closed) for (const listener of this.backListeners) listener()
  }

  /** One call's answer, with its time; GET is retried (see `retryingGets`), POST sent exactly once. */
  request(request: UpstreamRequest): Promise<UpstreamResponse> {
    return new Promise((resolve, reject) =>
      this.call(request, (error, response) => (error ? reject(error) : resolve(response!))),
    )
  }

  /**
   * `request` with its answer or its UpstreamError told to a callback: the proxied call's path, where the
   * promises of an async chain (about 2.6 us a request in a perf profile of the bench's proxied call)
   * were most of what the gateway's own code cost.
   */
  call(
    request: UpstreamRequest,
    done: (error: UpstreamError | null, response?: UpstreamResponse) => void,
  ): void {
    // once the upstream is known down, a call would only wait out its timeout (15 s by default) to
    // fail: it is refused now, and the probe decides when calls go out again
    if (!this.reachable) {
      done(new UpstreamError('open', 0, new Error(this.unreachableReason)))
      return
    }
    const started = performance.now()
    this.send(request, (failure, answer) => {
      const ms = performance.now() - started
      if (failure && request.body instanceof Readable && request.body.errored) {
        // abandoned by the gateway itself: not an upstream error, and no step towards opening the circuit
        done(new UpstreamError('body', ms, failure))
        return
      }
      if (failure) {
        const kind = classifyFailure(failure)
        // only a connection the network refused: a request undici refuses outright says nothing of the upstream
        if (kind === 'connect' && CONNECT_FAILURES.has((failure as { code?: string }).code ?? ''))
          this.failed(UPSTREAM_UNREACHABLE)
        if (kind === 'timeout') this.failed(UPSTREAM_NOT_ANSWERING)
        this.metrics.upstreamErrors.inc({ kind })
        this.metrics.upstreamDuration.labels(request.route).observe(ms / 1000)
        done(new UpstreamError(kind, ms, failure))
        return
      }
      this.answered()
      this.metrics.upstreamDuration.labels(request.route).observe(ms / 1000)
      if (answer!.status >= 500) this.metrics.upstreamErrors.inc({ kind: 'server_error' })
      done(null, {
        status: answer!.status,
        headers: endToEndHeaders(answer!.headers),
        body: answer!.body,
        ms,
      })
    })
  }

  private send(request: UpstreamRequest, done: (error: Error | null, answer?: RawAnswer) => void): void {
    const dispatcher = request.method === 'GET' ? this.gets : this.pool
    const handler = new CollectingHandler(done)
    try {
      dispatcher.dispatch(
        {
          method: request.method,
          path: this.basePath + request.path,
          headers: request.headers,
          body: request.body,
          ...(request.timeoutMs && {
            headersTimeout: request.timeoutMs,
            bodyTimeout: request.timeoutMs,
          }),
        },
        handler,
      )
    } catch (error) {
      // a request undici refuses outright fails as the promise around it used to reject
      handler.finish(error as Error)
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.probeTimer)
    this.closed = true
    this.probing?.destroy()
    if (this.pool.destroyed) return
    // closing the retry agent closes the pool behind it
    await (this.gets === this.pool ? this.pool.close() : this.gets.close())
  }

  /**
   * Ends every call still out, each failing as a reset connection would. For a shutdown that has already
   * answered its clients: a graceful close would wait for a hung upstream until the process is killed.
   */
  async abandon(): Promise<void> {
    clearInterval(this.probeTimer)
    this.probing?.destroy()
    if (!this.pool.destroyed) await (this.gets === this.pool ? this.pool.destroy() : this.gets.destroy())
  }
}
