import { WS_CLOSE } from './protocol'

// When the live client tries again after losing its socket. Exponential back-off with full jitter:
// after a deploy or a crash every browser returns at a different moment instead of all at once,
// and a gateway that stays away is asked less and less often. Shared so the bench's reconnect storm
// (loadtests/bench) drops and returns its sockets by the very policy the web client follows.

export interface ReconnectPolicy {
  /** the window of the first retry; each failure doubles it */
  baseMs: number
  /** the largest window */
  capMs: number
  /** a socket open this long counts as a success: the next loss starts again from the first window */
  stableMs: number
  /** the least wait after the gateway said it is busy (a close with "try again later") */
  busyMinMs: number
  /** the step a busy gateway moves the back-off to at least */
  busyAttempt: number
  /** sockets in a row that failed at once (refused upgrades look like this), after which a floor applies */
  refusedInRow: number
  /** that floor, as a share of the window */
  refusedFloorShare: number
}

export const RECONNECT: Readonly<ReconnectPolicy> = Object.freeze({
  baseMs: 1000,
  capMs: 30_000,
  stableMs: 10_000,
  busyMinMs: 5000,
  busyAttempt: 3,
  refusedInRow: 3,
  refusedFloorShare: 0.25,
})

/** A socket open for less than this failed "at once": a refused upgrade, or a close right after it. */
const IMMEDIATE_FAILURE_MS = 1000

/** The window retry number `attempt` draws its wait from: base · 2^attempt, at most cap. */
export function reconnectWindow(attempt: number, policy: ReconnectPolicy = RECONNECT): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(Math.max(attempt, 0), 30))
}

/**
 * The wait before retry number `attempt` (0 for the first): a point drawn by `random` (0 ≤ random < 1)
 * from [floorMs, min(cap, base · 2^attempt)). With floorMs 0 this is plain full jitter.
 */
export function reconnectDelay(
  attempt: number,
  random: number,
  policy: ReconnectPolicy = RECONNECT,
  floorMs = 0,
): number {
  const window = reconnectWindow(attempt, policy)
  const floor = Math.min(Math.max(floorMs, 0), window)
  return Math.floor(floor + Math.min(Math.max(random, 0), 1) * (window - floor))
}

/**
 * Close codes with which the gateway asks a client to stay away a while: overloaded or a slow reader
 * (1013), or a socket it closed for abuse (1008 too many frames or subscriptions, 1009 a frame too
 * large), where coming straight back would only repeat it. Refused upgrades (429, 503) reach the
 * browser as a plain failed socket; those count as failures and back off like any other.
 */
export function closeAsksToWait(code: number | undefined): boolean {
  return code === WS_CLOSE.tryAgainLater || code === WS_CLOSE.policyViolation || code === WS_CLOSE.tooLarge
}

/**
 * Back-off state of one client: how many tries in a row have failed, and whether the last asked to
 * wait. Full jitter while failures are few; once several sockets in a row failed at once (a gateway
 * that is gone, or refuses upgrades with 429/503, which a browser cannot tell apart), each wait keeps
 * a quarter of its window as a floor, so a crowd of clients never comes back faster than that: at
 * most eight tries in any 30 s.
 */
export class Backoff {
  private attempt = 0
  private busy = false
  private failedAtOnce = 0

  constructor(
    private readonly policy: ReconnectPolicy = RECONNECT,
    private readonly random: () => number = Math.random,
  ) {}

  /** Called when a socket closes: how long it was open (0 if never) and the close code. Returns the wait. */
  next(openForMs: number, closeCode: number | undefined): number {
    if (openForMs >= this.policy.stableMs) this.attempt = 0
    this.failedAtOnce = openForMs < IMMEDIATE_FAILURE_MS ? this.failedAtOnce + 1 : 0
    this.busy = closeAsksToWait(closeCode)
    if (this.busy) this.attempt = Math.max(this.attempt, this.policy.busyAttempt)
    const refusedFloor =
      this.failedAtOnce >= this.policy.refusedInRow
        ? reconnectWindow(this.attempt, this.policy) * this.policy.refusedFloorShare
        : 0
    const floor = Math.max(refusedFloor, this.busy ? this.policy.busyMinMs : 0)
    const delay = reconnectDelay(this.attempt, this.random(), this.policy, floor)
    this.attempt++
    return delay
  }

  /** Whether the gateway asked to wait: then coming online or visible does not cut the wait short. */
  get asksToWait(): boolean {
    return this.busy
  }
}
