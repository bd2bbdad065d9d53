import { describe, expect, it } from 'vitest'
import { extractPublishTs, summarizeHistogram } from './lean-client'

describe('extractPublishTs', () => {
  it.each([
    [
      'ts last',
      '{"type":"DETAIL","symbol":"btcusdt","data":{"close":"1"},"ts":1700000000123}',
      1700000000123,
    ],
    ['spaces around', '{"type":"TRADE","data":{},"ts": 1700000000123 }\n', 1700000000123],
    ['fractional ms', '{"type":"KLINE","data":{},"ts":1700000000123.25}', 1700000000123.25],
    ['nested ts after the top-level one', '{"ts":5,"type":"TRADE","data":{"ts":9}}', 5],
    ['nested ts only', '{"type":"TRADE","data":{"ts":9}}', undefined],
    ['no ts', '{"type":"HEARTBEAT"}', undefined],
    ['not json', 'garbage "ts":', undefined],
  ])('%s', (_name, frame, expected) => {
    expect(extractPublishTs(Buffer.from(frame))).toBe(expected)
  })
})

describe('summarizeHistogram', () => {
  it('reports percentiles as the smallest millisecond covering the rank', () => {
    const histogram = new Uint32Array(1000)
    histogram[1] = 900
    histogram[10] = 90
    histogram[200] = 9
    histogram[900] = 1
    expect(summarizeHistogram(histogram)).toEqual({ samples: 1000, p50: 1, p99: 10, p999: 200, max: 900 })
  })

  it('reports no percentiles without samples', () => {
    const summary = summarizeHistogram(new Uint32Array(10))
    expect(summary.samples).toBe(0)
    expect(summary.p99).toBeNaN()
  })
})
