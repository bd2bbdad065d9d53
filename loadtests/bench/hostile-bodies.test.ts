import { describe, expect, it } from 'vitest'
import { histogramCounts, loopGaps, slowAnswers } from './hostile-bodies'

describe('loopGaps', () => {
  const reading = (count: number, within20: number, within50: number) => ({
    count,
    atMost: new Map([
      ['0.011', 0],
      ['0.02', within20],
      ['0.05', within50],
      ['+Inf', count],
    ]),
  })

  it('counts the late timer runs between two readings, not since the gateway started', () => {
    // 100 runs before the span (5 over 20 ms, 1 over 50 ms), 300 after it
    const gaps = loopGaps(reading(100, 95, 99), reading(300, 275, 296))
    expect(gaps).toEqual({ samples: 200, over20ms: 20, over50ms: 3 })
  })

  it('says nothing when either reading or a bound is missing, rather than a made-up zero', () => {
    expect(loopGaps(undefined, reading(300, 275, 296))).toBeUndefined()
    expect(loopGaps(reading(100, 95, 99), undefined)).toBeUndefined()
    expect(loopGaps({ count: 100, atMost: new Map() }, reading(300, 275, 296))).toBeUndefined()
  })
})

describe("the gateway's own histograms read from /metrics", () => {
  /** Two routes' answer times: at most 50 ms, and all of them. */
  const metrics = (routes: Array<[within50: number, count: number]>) =>
    routes
      .map(([within50, count], index) =>
        [
          `gateway_http_request_duration_seconds_bucket{route="r${index}",le="0.025"} ${within50}`,
          `gateway_http_request_duration_seconds_bucket{route="r${index}",le="0.05"} ${within50}`,
          `gateway_http_request_duration_seconds_bucket{route="r${index}",le="+Inf"} ${count}`,
          `gateway_http_request_duration_seconds_count{route="r${index}"} ${count}`,
        ].join('\n'),
      )
      .join('\n')

  it("sums every route's series and counts the answers slower than 50 ms between two readings", () => {
    const before = histogramCounts(
      metrics([
        [10, 10],
        [5, 6],
      ]),
      'gateway_http_request_duration_seconds',
    )
    const after = histogramCounts(
      metrics([
        [110, 113],
        [55, 60],
      ]),
      'gateway_http_request_duration_seconds',
    )
    // 173 - 16 = 157 answers in the span, 165 - 15 = 150 of them within 50 ms: 7 slower
    expect(slowAnswers(before, after)).toEqual({ answers: 157, over50ms: 7 })
  })

  it('says nothing for a histogram /metrics does not have', () => {
    expect(histogramCounts(metrics([[1, 1]]), 'gateway_event_loop_delay_seconds')).toBeUndefined()
    expect(
      slowAnswers(undefined, histogramCounts(metrics([[1, 1]]), 'gateway_http_request_duration_seconds')),
    ).toBeUndefined()
  })
})
