// Chart indicators over candle closes. They are drawn, never charged or shown as prices, so they are
// worked in floating point (the chart's own unit); a value is null until its window has filled.

/** Simple moving average: the mean of the last `period` values. */
export function movingAverage(values: readonly number[], period: number): (number | null)[] {
  checkPeriod(period)
  const out: (number | null)[] = []
  let sum = 0
  values.forEach((value, index) => {
    sum += value
    if (index >= period) sum -= values[index - period]!
    out.push(index >= period - 1 ? sum / period : null)
  })
  return out
}

/**
 * Exponential moving average with weight 2 / (period + 1), seeded with the simple average of the
 * first `period` values (the usual convention, which Binance and TradingView follow).
 */
export function exponentialMovingAverage(values: readonly number[], period: number): (number | null)[] {
  checkPeriod(period)
  const weight = 2 / (period + 1)
  const out: (number | null)[] = []
  let previous: number | null = null
  let seed = 0
  values.forEach((value, index) => {
    if (index < period - 1) {
      seed += value
      out.push(null)
      return
    }
    previous = previous === null ? (seed + value) / period : value * weight + previous * (1 - weight)
    out.push(previous)
  })
  return out
}

export interface Band {
  upper: number
  middle: number
  lower: number
}

/**
 * Bollinger bands: the simple moving average of `period` values, and that average plus and minus
 * `width` population standard deviations of the same window.
 */
export function bollingerBands(values: readonly number[], period: number, width: number): (Band | null)[] {
  checkPeriod(period)
  const middles = movingAverage(values, period)
  return middles.map((middle, index) => {
    if (middle === null) return null
    let squares = 0
    for (let back = index - period + 1; back <= index; back++) squares += (values[back]! - middle) ** 2
    const spread = width * Math.sqrt(squares / period)
    return { upper: middle + spread, middle, lower: middle - spread }
  })
}

function checkPeriod(period: number): void {
  if (!Number.isInteger(period) || period < 1) throw new RangeError('period must be a whole number from 1')
}
