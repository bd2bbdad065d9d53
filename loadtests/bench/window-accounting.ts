/**
 * A measurement window counts the frames published inside it, wherever they arrive: a frame
 * belongs to the window its publish time (`ts`) falls in, so a backlog draining into the window is
 * not counted as the window's work, and a frame published at the end that arrives after it is.
 */

export const MAX_LATENCY_MS = 120_000

export interface LatencySummary {
  samples: number
  p50: number
  p99: number
  p999: number
  max: number
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

class FrameCounts {
  delivered = 0
  readonly histogram = new Uint32Array(MAX_LATENCY_MS + 1)

  add(latencyMs: number): void {
    this.delivered += 1
    this.histogram[Math.min(MAX_LATENCY_MS, Math.max(0, Math.round(latencyMs)))]! += 1
  }
}

export interface WindowCount {
  delivered: number
  latencyMs: LatencySummary
}

export class PublishTimeWindow {
  /** Frames of every-tick subscriptions. */
  readonly raw = new FrameCounts()
  /** Frames of subscriptions at a chosen rate (the market list's). */
  readonly rated = new FrameCounts()
  /** Frames that arrived while the window was open but were published before it began. */
  backlog = 0
  private to = Number.POSITIVE_INFINITY

  /** `from`: publish time (epoch ms) the window begins at; frames published at `from` count. */
  constructor(readonly from: number) {}

  /** Ends the window at publish time `to` (included); frames published later no longer count. */
  close(to: number): void {
    this.to = to
  }

  get end(): number {
    return this.to
  }

  record(publishedAt: number, receivedAt: number, rated: boolean): void {
    if (publishedAt < this.from) {
      if (receivedAt <= this.to) this.backlog += 1
      return
    }
    if (publishedAt > this.to) return
    ;(rated ? this.rated : this.raw).add(receivedAt - publishedAt)
  }

  count(kind: 'raw' | 'rated'): WindowCount {
    const counts = this[kind]
    return { delivered: counts.delivered, latencyMs: summarizeHistogram(counts.histogram) }
  }
}
