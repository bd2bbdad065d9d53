import { describe, expect, it } from 'vitest'
import { loopGaps } from './hostile-bodies'

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
