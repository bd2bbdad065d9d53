/**
 * A measurement window counts the frames published inside it, wherever they arrive: a frame
 * belongs to the window its publish time (`ts`) falls in, so a backlog draining into the window is
 * not counted as the window's work, and a frame published at the end that arrives after it is.
 * The native generator counts them so (`native-gen.c`) and hands over a histogram of whole
 * milliseconds per window; its percentiles are read here.
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

export interface WindowCount {
  delivered: number
  latencyMs: LatencySummary
}
