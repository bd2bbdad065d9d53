import { describe, expect, it } from 'vitest'
import { amountText, isPositiveAmount } from './form'

describe('amount inputs', () => {
  it.each([
    ['-5', '5'],
    ['12.5', '12.5'],
    ['1,5', '1.5'],
    ['1.2.3', '1.23'],
    ['abc', ''],
    ['+7e3', '73'],
    ['−5', '5'],
  ])('keep "%s" as "%s"', (typed, kept) => {
    expect(amountText(typed)).toBe(kept)
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
