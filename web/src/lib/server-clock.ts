// The exchange's clock as seen from this page. Countdowns (a second contract's settlement) run on
// it, not on the device's clock, which may be minutes off. Every market frame carries the time the
// exchange stamped it with; it arrives a little after that, so (stamp − arrival) is at most the
// device's offset from the exchange, and the largest such value of the last half minute is the best
// estimate: the frame that travelled fastest. Old samples age out, so a device clock that is moved
// while the page is open is followed within WINDOW_MS.
//
// Before the first frame, the answers' Date headers say what they can: the server's time in whole
// seconds, which brackets the offset between (date − arrival) and (date + 1 s − sending). The device's
// clock is taken as right unless those brackets rule it out, and then the nearest offset they allow is
// taken: within a second of the truth, which is enough to tell a clock minutes off.

const WINDOW_MS = 30_000

/** How much later than its Date header an answer may have been made: the header counts whole seconds. */
const DATE_RESOLUTION_MS = 1000

export class ServerClock {
  private samples: Array<{ at: number; offset: number }> = []
  /** what answers' dates allow of the offset, kept until a frame's stamp says more */
  private brackets: Array<{ at: number; low: number; high: number }> = []

  /** One stamp from the exchange, read at `receivedAt` on the device's clock. */
  note(serverMs: number, receivedAt: number): void {
    if (!Number.isFinite(serverMs) || serverMs <= 0) return
    const kept = this.samples.filter(
      (sample) => receivedAt - sample.at < WINDOW_MS && sample.at <= receivedAt,
    )
    // after a silence longer than the window the last estimate is carried forward: the next stamp may be
    // an old one replayed (a topic's snapshot on a resubscribe), which alone would read as a clock behind
    if (kept.length === 0 && this.samples.length > 0) kept.push({ at: receivedAt, offset: this.offset() })
    this.samples = kept
    this.samples.push({ at: receivedAt, offset: serverMs - receivedAt })
  }

  /** An answer's Date header (epoch ms, whole seconds), for a request sent at `sentAt` and answered at `receivedAt`. */
  noteAnswer(date: number, sentAt: number, receivedAt: number): void {
    if (!Number.isFinite(date) || date <= 0 || receivedAt < sentAt) return
    this.brackets = this.brackets.filter(
      (bracket) => receivedAt - bracket.at < WINDOW_MS && bracket.at <= receivedAt,
    )
    this.brackets.push({ at: receivedAt, low: date - receivedAt, high: date + DATE_RESOLUTION_MS - sentAt })
  }

  /** How far the exchange's clock is ahead of the device's (ms); 0 until a stamp or a date has been seen. */
  offset(): number {
    if (this.samples.length > 0) return Math.max(...this.samples.map((sample) => sample.offset))
    if (this.brackets.length === 0) return 0
    let low = Math.max(...this.brackets.map((bracket) => bracket.low))
    let high = Math.min(...this.brackets.map((bracket) => bracket.high))
    // brackets that do not overlap (the device's clock moved between answers): the latest answer alone
    if (low > high) ({ low, high } = this.brackets.at(-1)!)
    return Math.min(Math.max(0, low), high)
  }

  /** The exchange's time now. */
  now(deviceNow: number = Date.now()): number {
    return deviceNow + this.offset()
  }
}

/** The page's one server clock, fed by the live client. */
export const serverClock = new ServerClock()
