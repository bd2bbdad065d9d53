// The exchange's clock as seen from this page. Countdowns (a second contract's settlement) run on
// it, not on the device's clock, which may be minutes off. Every market frame carries the time the
// exchange stamped it with; it arrives a little after that, so (stamp − arrival) is at most the
// device's offset from the exchange, and the largest such value of the last half minute is the best
// estimate: the frame that travelled fastest. Old samples age out, so a device clock that is moved
// while the page is open is followed within WINDOW_MS.

const WINDOW_MS = 30_000

export class ServerClock {
  private samples: Array<{ at: number; offset: number }> = []

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

  /** How far the exchange's clock is ahead of the device's (ms); 0 until a stamp has been seen. */
  offset(): number {
    if (this.samples.length === 0) return 0
    return Math.max(...this.samples.map((sample) => sample.offset))
  }

  /** The exchange's time now. */
  now(deviceNow: number = Date.now()): number {
    return deviceNow + this.offset()
  }
}

/** The page's one server clock, fed by the live client. */
export const serverClock = new ServerClock()
