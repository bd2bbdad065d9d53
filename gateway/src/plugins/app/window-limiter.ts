// A fixed-window request budget per key, decided in the request's own turn. Instances share the count
// through Redis without waiting on it per request: each keeps the shared total Redis last answered and
// the requests it admitted since, and sends those in batches.
//
// The bound. An instance admits a request on its own only while (a) its unconfirmed requests (admitted,
// not yet answered for by Redis) stay below `slack`, and (b) the shared total it last saw plus those stay
// below the budget; otherwise the request waits for Redis, which counts it and decides. Each instance's
// view lags the true total by at most the other instances' unconfirmed requests, fewer than `slack` each,
// so N instances sharing Redis admit at most `max + (N - 1) * slack` requests a key a window, and never
// more than `max` with one instance or without Redis. `slack` is 1% of the budget, rounded down: a budget
// under 100 a minute has none, and every request of it waits for Redis as with a per-request count.

/** Counts `by` events under `key` in a window of `windowMs` from its first event: [total, ms left]. */
export type SharedCount = (key: string, windowMs: number, by: number) => Promise<[number, number]>

export interface WindowLimiterOptions {
  /** requests a key may make in a window */
  max: number
  windowMs: number
  /** the shared count, or null to count in this process alone */
  shared: SharedCount | null
  /** false while the shared count cannot be reached: requests then pass uncounted (fail open) */
  sharedReady(): boolean
  /** called once when the shared count fails and once when it answers again */
  onSharedState(up: boolean, error?: unknown): void
  /** how often admitted requests are sent to the shared count */
  flushMs?: number
  /** past this many keys in memory, the oldest is forgotten before another is added */
  maxKeys?: number
  now?: () => number
}

interface KeyWindow {
  key: string
  /** when this window ends, ms since the epoch; from Redis once it has answered */
  endsAt: number
  /** the shared total Redis last answered (every instance's requests); in-process: this instance's */
  confirmed: number
  /** admitted here and not yet sent */
  pending: number
  /** sent and not yet answered */
  inFlight: number
}

/** What `take` decides: true to admit, false to refuse, or a promise of either when Redis must decide. */
export type Verdict = boolean | Promise<boolean>

const DEFAULT_FLUSH_MS = 100
const DEFAULT_MAX_KEYS = 100_000

export class WindowLimiter {
  readonly slack: number
  private readonly windows = new Map<string, KeyWindow>()
  /** keys with requests waiting to be sent */
  private readonly dirty = new Set<KeyWindow>()
  private readonly now: () => number
  private readonly maxKeys: number
  private timer: NodeJS.Timeout | null = null
  private sharedFailing = false

  constructor(private readonly options: WindowLimiterOptions) {
    this.slack = options.shared ? Math.floor(options.max / 100) : 0
    this.now = options.now ?? Date.now
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS
    if (options.shared) {
      this.timer = setInterval(() => this.flush(), options.flushMs ?? DEFAULT_FLUSH_MS)
      this.timer.unref()
    }
  }

  /** Takes one request from `key`'s budget. */
  take(key: string): Verdict {
    const now = this.now()
    const window = this.windowOf(key, now)
    if (!this.options.shared) {
      if (window.confirmed >= this.options.max) return false
      window.confirmed++
      return true
    }
    if (!this.options.sharedReady()) {
      this.sharedFailed(new Error('redis not ready'))
      return true
    }
    // the shared total only grows within a window: once it reached the budget, no need to ask
    if (window.confirmed >= this.options.max) return false
    const unconfirmed = window.pending + window.inFlight
    if (unconfirmed < this.slack && window.confirmed + unconfirmed < this.options.max) {
      window.pending++
      this.dirty.add(window)
      return true
    }
    return this.send(window, 1).then(
      (total) => total <= this.options.max,
      // Redis went away in between: the request passes, as every request does while it is away
      () => true,
    )
  }

  /** Seconds until `key`'s window ends, at least 1: what a refused client is told to wait. */
  secondsLeft(key: string): number {
    const window = this.windows.get(key)
    const msLeft = window ? window.endsAt - this.now() : this.options.windowMs
    return Math.max(1, Math.ceil(msLeft / 1000))
  }

  /** Sends every key's admitted requests to the shared count; resolves when Redis has answered. */
  async flush(): Promise<void> {
    if (this.dirty.size === 0) return
    const windows = [...this.dirty]
    this.dirty.clear()
    if (!this.options.sharedReady()) {
      // uncounted, as requests are while Redis is away
      for (const window of windows) window.pending = 0
      return
    }
    await Promise.all(windows.map((window) => this.send(window, 0).catch(() => undefined)))
  }

  close(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  private windowOf(key: string, now: number): KeyWindow {
    let window = this.windows.get(key)
    if (window && window.endsAt > now) return window
    if (window) {
      // a new window: answers still on their way for the old one find it gone and are dropped
      this.windows.delete(key)
      this.dirty.delete(window)
    } else if (this.windows.size >= this.maxKeys) {
      // Map keeps insertion order: the first key is the one seen longest ago
      const oldest = this.windows.values().next().value!
      this.windows.delete(oldest.key)
      this.dirty.delete(oldest)
    }
    window = { key, endsAt: now + this.options.windowMs, confirmed: 0, pending: 0, inFlight: 0 }
    this.windows.set(key, window)
    return window
  }

  /** Sends the window's pending requests and `extra` more; resolves with the shared total after them. */
  private async send(window: KeyWindow, extra: number): Promise<number> {
    const by = window.pending + extra
    window.pending = 0
    this.dirty.delete(window)
    window.inFlight += by
    try {
      const [total, msLeft] = await this.options.shared!(window.key, this.options.windowMs, by)
      this.sharedAnswered()
      if (this.windows.get(window.key) === window) {
        window.confirmed = Math.max(window.confirmed, total)
        // Redis started the window with the first request any instance sent; its end is the one all share
        if (msLeft > 0) window.endsAt = this.now() + msLeft
      }
      return total
    } catch (error) {
      this.sharedFailed(error)
      throw error
    } finally {
      window.inFlight -= by
    }
  }

  private sharedFailed(error: unknown): void {
    if (this.sharedFailing) return
    this.sharedFailing = true
    this.options.onSharedState(false, error)
  }

  private sharedAnswered(): void {
    if (!this.sharedFailing) return
    this.sharedFailing = false
    this.options.onSharedState(true)
  }
}
