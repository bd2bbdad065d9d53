/**
 * Every percentile and median of the harness: over samples (a percentile, a median with its range)
 * and over the native generator's latency histogram. A window counts the frames published inside
 * it (`native-gen.c` hands over a histogram of whole milliseconds per window); its percentiles are
 * read here too.
 */

/**
 * The value at `quantile` of ascending `sorted`: the smallest sample covering that rank (NaN for
 * none), the same rule as the histogram's below.
 */
export function percentile(sorted: readonly number[], quantile: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]!
}

/** Ascending copy of `values`. */
export const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b)

/** p50, p99 and the slowest of some times. */
export function latencySummary(values: readonly number[]): { p50: number; p99: number; max: number } {
  const sorted = ascending(values)
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN }
}

/** The middle value (the lower middle of an even count), and the lowest and highest; finite values only. */
export function spread(values: readonly number[]): { median: number; low: number; high: number } | undefined {
  const kept = ascending(values.filter((value) => Number.isFinite(value)))
  if (kept.length === 0) return undefined
  return { median: kept[Math.floor((kept.length - 1) / 2)]!, low: kept[0]!, high: kept.at(-1)! }
}

/** The median of `values` (the lower middle of an even count), NaN for none. */
export const median = (values: readonly number[]): number => spread(values)?.median ?? Number.NaN

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
