import { describe, expect, it } from 'vitest'
import { bollingerBands, exponentialMovingAverage, movingAverage } from './indicators'

const rounded = (values: readonly (number | null)[], places = 2) =>
  values.map((value) => (value === null ? null : Number(value.toFixed(places))))

// StockCharts' worked example of a 10-day EMA ("Moving Averages - Simple and Exponential")
const STOCKCHARTS = [
  22.27, 22.19, 22.08, 22.17, 22.18, 22.13, 22.23, 22.43, 22.24, 22.29, 22.15, 22.39, 22.38, 22.61, 23.36,
  24.05, 23.75, 23.83, 23.95, 23.63,
]

describe('movingAverage', () => {
  it('is the mean of the last period values, null until the window fills', () => {
    expect(movingAverage([1, 2, 3, 4, 5, 6], 3)).toEqual([null, null, 2, 3, 4, 5])
    expect(movingAverage([5, 7], 1)).toEqual([5, 7])
    expect(movingAverage([1, 2], 3)).toEqual([null, null])
  })

  it("matches StockCharts' 10-day simple average", () => {
    expect(rounded(movingAverage(STOCKCHARTS, 10)).slice(9, 13)).toEqual([22.22, 22.21, 22.23, 22.26])
  })

  it('refuses a period that is not a whole number from 1', () => {
    expect(() => movingAverage([1], 0)).toThrow(RangeError)
    expect(() => movingAverage([1], 2.5)).toThrow(RangeError)
  })
})

describe('exponentialMovingAverage', () => {
  it("matches StockCharts' 10-day EMA, seeded with the simple average", () => {
    const ema = rounded(exponentialMovingAverage(STOCKCHARTS, 10))
    expect(ema.slice(0, 9)).toEqual(Array(9).fill(null))
    expect(ema.slice(9)).toEqual([22.22, 22.21, 22.24, 22.27, 22.33, 22.52, 22.8, 22.97, 23.13, 23.28, 23.34])
  })

  it('weighs the newest value 2 / (period + 1)', () => {
    // seed (1 + 2 + 3) / 3 = 2, then 10 · 0.5 + 2 · 0.5 = 6
    expect(exponentialMovingAverage([1, 2, 3, 10], 3)).toEqual([null, null, 2, 6])
  })
})

describe('bollingerBands', () => {
  it('puts the bands two population deviations around the mean', () => {
    // mean 5, population standard deviation exactly 2
    const [band] = bollingerBands([2, 4, 4, 4, 5, 5, 7, 9], 8, 2).slice(7)
    expect(band).toEqual({ upper: 9, middle: 5, lower: 1 })
  })

  it('is null before the window fills and closes to the mean on a flat series', () => {
    expect(bollingerBands([3, 3, 3], 2, 2)).toEqual([
      null,
      { upper: 3, middle: 3, lower: 3 },
      { upper: 3, middle: 3, lower: 3 },
    ])
  })
})
