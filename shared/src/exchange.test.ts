import { describe, expect, it } from 'vitest'
import { exchangeFigures, rateText } from './exchange'

describe('exchangeFigures', () => {
  it('takes the fee from the converted amount and cuts both to the received coin', () => {
    // 100 usdt at 0.00002857142857 btc each, 0.2 % fee, btc in 8 places
    const { fee, received } = exchangeFigures('100', '0.00002857142857', '0.002', 8)
    expect(fee.toFixed()).toBe('0.00000571')
    expect(received.toFixed()).toBe('0.00285143')
  })

  it("counts as kept, exactly, what the fee and the cut to the coin's places leave behind", () => {
    // 100 usdt at 0.0000147068 btc each into btc counted to 5 places: the fee cuts to nothing, yet
    // 0.00147068 btc converted arrives as 0.00147
    const { fee, received, kept } = exchangeFigures('100', '0.0000147068', '0.002', 5)
    expect(fee.toFixed()).toBe('0')
    expect(received.toFixed()).toBe('0.00147')
    expect(kept.toFixed()).toBe('0.00000068')
    // nothing goes missing: what arrives and what is kept make up the converted amount to the last digit
    const wide = exchangeFigures('123.456789', '0.00002857142857', '0.002', 8)
    expect(wide.received.plus(wide.kept).toFixed()).toBe('0.00352733682839506173')
  })

  it('charges nothing at a zero rate and never gives a negative amount', () => {
    expect(exchangeFigures('0.001', '35000', '0', 2).received.toFixed()).toBe('35')
    expect(exchangeFigures('0.00000001', '0.5', '0.002', 8).received.toFixed()).toBe('0')
  })
})

describe('rateText', () => {
  it('keeps six significant digits of a small rate', () => {
    expect(rateText('0.000285714285', 4)).toBe('0.000285714')
    expect(rateText('0.00002857142857', 8)).toBe('0.0000285714')
    // zeros among the six digits are kept, so a rate never looks coarser than the others
    expect(rateText('0.00028720012', 4)).toBe('0.000287200')
  })

  it('keeps the received coin places of a large rate, cut down, never rounded up', () => {
    expect(rateText('35000.123456789', 2)).toBe('35000.12')
    expect(rateText('3500.99999999', 6)).toBe('3500.999999')
  })
})
