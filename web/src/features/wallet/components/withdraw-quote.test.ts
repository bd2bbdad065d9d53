import { describe, expect, it } from 'vitest'
import { maxWithdrawal, quoteWithdrawal } from './withdraw-quote'

describe('quoteWithdrawal', () => {
  it('takes the percentage fee out of the amount, rounded down to 8 places', () => {
    expect(quoteWithdrawal('100', '10', 0)).toEqual({ fee: '10', receive: '90' })
    expect(quoteWithdrawal('33.33333339', '10', 0)).toEqual({ fee: '3.33333333', receive: '30.00000006' })
  })

  it('charges nothing while a free withdrawal is left today', () => {
    expect(quoteWithdrawal('100', '10', 1)).toEqual({ fee: '0', receive: '100' })
  })

  it('shows zero for an empty amount instead of failing', () => {
    expect(quoteWithdrawal('', '10', 0)).toEqual({ fee: '0', receive: '0' })
  })
})

describe('maxWithdrawal', () => {
  it('is the available balance, capped by the channel maximum', () => {
    expect(maxWithdrawal('2500.5', '100000')).toBe('2500.5')
    expect(maxWithdrawal('250000', '100000')).toBe('100000')
  })
})
