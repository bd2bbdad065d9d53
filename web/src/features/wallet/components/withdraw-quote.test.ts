import { describe, expect, it } from 'vitest'
import { maxWithdrawal, quoteWithdrawal } from './withdraw-quote'

describe('quoteWithdrawal', () => {
  it("takes the percentage fee out of the amount, rounded down to the coin's places", () => {
    expect(quoteWithdrawal('100', '10', 0, 8)).toEqual({ fee: '10', receive: '90' })
    expect(quoteWithdrawal('33.33333339', '10', 0, 8)).toEqual({ fee: '3.33333333', receive: '30.00000006' })
    expect(quoteWithdrawal('33.33', '10', 0, 2)).toEqual({ fee: '3.33', receive: '30' })
  })

  it('charges nothing while a free withdrawal is left today', () => {
    expect(quoteWithdrawal('100', '10', 1, 8)).toEqual({ fee: '0', receive: '100' })
  })

  it('shows zero for an empty amount instead of failing', () => {
    expect(quoteWithdrawal('', '10', 0, 8)).toEqual({ fee: '0', receive: '0' })
  })
})

describe('maxWithdrawal', () => {
  it("is the available balance at the coin's precision, capped by the channel maximum", () => {
    expect(maxWithdrawal('2500.5', '100000', 8)).toBe('2500.5')
    expect(maxWithdrawal('440.123456', '100000', 4)).toBe('440.1234')
    expect(maxWithdrawal('250000', '100000', 8)).toBe('100000')
  })
})
