import { describe, expect, it } from 'vitest'
import { sanitiseAmount } from '../lib/order-math'
import { isPositiveAmount } from './form'

describe('amount inputs', () => {
  it.each([
    ['-5', '5'],
    ['12.5', '12.5'],
    ['1,5', '1.5'],
    ['1.2.3', '1.23'],
    ['abc', ''],
    ['+7e3', '73'],
    ['−5', '5'],
    ['0.1234567890123456789', '0.123456789012345678'],
  ])('keep "%s" as "%s"', (typed, kept) => {
    expect(sanitiseAmount(typed)).toBe(kept)
  })

  it('refuse digits past the coin precision as they are typed', () => {
    expect(sanitiseAmount('0.000000001', 8)).toBe('0.00000000')
    expect(sanitiseAmount('440.123456', 4)).toBe('440.1234')
  })

  it.each([
    ['5', true],
    ['0.0001', true],
    ['0', false],
    ['0.000', false],
    ['', false],
    ['.', false],
    ['1.', false],
  ])('call "%s" a positive amount: %s', (text, positive) => {
    expect(isPositiveAmount(text)).toBe(positive)
  })
})
