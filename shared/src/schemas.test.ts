import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { Phone } from './schemas'

// SPEC §5: an 11-digit mainland-style mobile number (optional 86 prefix) or a 0-led landline of 10 to 13 digits.

describe('the phone rule', () => {
  it.each([
    ['13800138000', 'an 11-digit mobile number'],
    ['8613800138000', 'with the 86 prefix'],
    ['+8613800138000', 'with +86'],
    ['0101234567', 'a 10-digit landline'],
    ['0755123456789', 'a 13-digit landline'],
  ])('takes %s (%s)', (phone) => {
    expect(Value.Check(Phone, phone)).toBe(true)
  })

  it.each([
    ['123456', 'six digits'],
    ['1380013800', 'a 10-digit mobile number'],
    ['138001380001', 'a 12-digit mobile number'],
    ['23800138000', 'a mobile number not led by 1'],
    ['+13800138000', 'a plus without 86'],
    ['010123456', 'a 9-digit landline'],
    ['07551234567890', 'a 14-digit landline'],
    ['138 0013 8000', 'spaces'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (phone) => {
    expect(Value.Check(Phone, phone)).toBe(false)
  })
})
