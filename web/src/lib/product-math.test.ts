import { describe, expect, it } from 'vitest'
import { DAY_MS, expectedInterest, maturityOf, quoteRedeem } from './product-math'

const fixed = { dailyRate: '0.0015', days: 30, redeemPenalty: '0.01', settleHours: 24 }
const flexible = { dailyRate: '0.001', days: 7, redeemPenalty: '0', settleHours: 0 }

describe('product figures', () => {
  it('expects the whole term of interest, cut to the coin places', () => {
    expect(expectedInterest(fixed, '123.45', 2)).toBe('5.55')
    expect(expectedInterest(fixed, '123.45', 8)).toBe('5.55525')
    expect(maturityOf(fixed, 1000)).toBe(1000 + 30 * DAY_MS)
  })

  it('quotes an early redemption: interest so far without a penalty, the stake less the penalty with one', () => {
    expect(quoteRedeem({ amount: '100', earned: '0.3' }, flexible, 8, 5)).toEqual({
      penalty: '0',
      interest: '0.3',
      receive: '100.3',
      arrivesAt: 5,
    })
    expect(quoteRedeem({ amount: '200', earned: '0.6' }, fixed, 8, 5)).toEqual({
      penalty: '2',
      interest: '0',
      receive: '198',
      arrivesAt: 5 + 24 * 3_600_000,
    })
  })
})
