import { describe, expect, it } from 'vitest'
import { toDecimal } from '@tradegate/shared'
import { FUNDING_INTERVAL_MS, ReferencePrices, nextFundingTime } from './reference-prices'

// The index ignores a lone print, the mark follows a price that stays, and funding has its cap and times.

const prices = (start: string) => new ReferencePrices(toDecimal(start), 2)

describe('reference prices', () => {
  it('moves neither index nor mark on one print far from the rest, nor on two', () => {
    const reference = prices('3000')
    reference.note(toDecimal('2700'))
    reference.note(toDecimal('3300'))
    expect(reference.index.toFixed()).toBe('3000')
    expect(reference.markPrice.toFixed()).toBe('3000')
  })

  it('moves the index once most of the last five prices are there, and the mark reaches it exactly', () => {
    const reference = prices('3000')
    for (let tick = 0; tick < 2; tick++) reference.note(toDecimal('3100'))
    expect(reference.index.toFixed()).toBe('3000')
    reference.note(toDecimal('3100'))
    expect(reference.index.toFixed()).toBe('3100')
    // a quarter of the gap, 25
    expect(reference.markPrice.toFixed()).toBe('3025')
    let ticks = 0
    while (!reference.markPrice.equals(3100) && ticks++ < 100) reference.note(toDecimal('3100'))
    expect(reference.markPrice.toFixed()).toBe('3100')
  })

  it('charges the base rate with no premium, the premium on top, and never past 0.75 %', () => {
    const reference = prices('3000')
    expect(reference.fundingRate.toFixed()).toBe('0.0001')
    for (let tick = 0; tick < 3; tick++) reference.note(toDecimal('3030'))
    // mark 3007.5 under an index of 3030: (3007.5 − 3030) / 3030 + 0.0001 = −0.0073257…
    expect(reference.fundingRate.toFixed()).toBe('-0.007326')
    for (let tick = 0; tick < 3; tick++) reference.note(toDecimal('6000'))
    expect(reference.fundingRate.toFixed()).toBe('-0.0075')
  })

  it('falls due at 00:00, 08:00 and 16:00 UTC', () => {
    const day = Date.UTC(2026, 10, 28)
    expect(nextFundingTime(day)).toBe(day + FUNDING_INTERVAL_MS)
    expect(nextFundingTime(day - 1)).toBe(day)
    expect(new Date(nextFundingTime(day + 9 * 3600_000)).toISOString()).toBe('2026-11-28T16:00:00.000Z')
  })
})
