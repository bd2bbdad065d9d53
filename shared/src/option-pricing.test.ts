import { Decimal } from 'decimal.js'
import { describe, expect, it } from 'vitest'
import {
  YEAR_MS,
  blackScholes,
  breakEven,
  optionOrderCost,
  normalCdf,
  yearsUntil,
  type OptionInputs,
  type OptionKind,
} from './option-pricing'

const MINUTE_YEARS = 60_000 / YEAR_MS

function priced(kind: OptionKind, inputs: Omit<OptionInputs, 'kind'>) {
  const { premium, delta } = blackScholes({ kind, ...inputs })
  return { premium: premium.toFixed(), delta: delta.toFixed() }
}

describe('normalCdf', () => {
  it.each<[string, string]>([
    ['0', '0.5000000000'],
    ['1', '0.8413447461'],
    ['-1', '0.1586552539'],
    ['1.96', '0.9750021049'],
    ['-3', '0.0013498980'],
    ['6', '0.9999999990'],
  ])('Φ(%s) = %s', (x, expected) => {
    expect(normalCdf(x).toFixed(10)).toBe(expected)
  })

  it('is exactly 0 and 1 far out in the tails', () => {
    expect(normalCdf('-12').toFixed()).toBe('0')
    expect(normalCdf('12').toFixed()).toBe('1')
  })
})

describe('blackScholes against published values', () => {
  // Hull, Options, Futures and Other Derivatives, example 15.6: c = 4.76, p = 0.81
  const hull = { spot: '42', strike: '40', rate: '0.1', volatility: '0.2', years: '0.5' }

  it('prices the textbook call at 4.76 and the put at 0.81', () => {
    expect(blackScholes({ kind: 'call', ...hull }).premium.toFixed(2)).toBe('4.76')
    expect(blackScholes({ kind: 'put', ...hull }).premium.toFixed(2)).toBe('0.81')
  })

  it('matches an independent double-precision evaluation to eight places', () => {
    // from Python's math.erfc on the same inputs
    expect(priced('call', hull)).toEqual({ premium: '4.75942239', delta: '0.77913129' })
    expect(priced('put', hull)).toEqual({ premium: '0.80859937', delta: '-0.22086871' })
  })

  it("gives the delta of Hull's delta-hedging example (0.522, call worth 2.40)", () => {
    const example = { spot: '49', strike: '50', rate: '0.05', volatility: '0.2', years: String(20 / 52) }
    const call = blackScholes({ kind: 'call', ...example })
    expect(call.premium.toFixed(2)).toBe('2.40')
    expect(call.delta.toFixed(3)).toBe('0.522')
  })

  it.each<[string, Omit<OptionInputs, 'kind'>, string, string, string, string]>([
    [
      'at the money, one year',
      { spot: '100', strike: '100', rate: '0.05', volatility: '0.2', years: '1' },
      '10.45058357',
      '0.63683065',
      '5.57352602',
      '-0.36316935',
    ],
    [
      'deep out of the money call, deep in the money put',
      { spot: '42', strike: '80', rate: '0.1', volatility: '0.2', years: '0.5' },
      '0.00002277',
      '0.00001798',
      '34.09837673',
      '-0.99998202',
    ],
    [
      // 42 - 10·e^(-0.05) = 32.487705754992…
      'deep in the money call: worth spot less the discounted strike',
      { spot: '42', strike: '10', rate: '0.1', volatility: '0.2', years: '0.5' },
      '32.48770575',
      '1',
      '0',
      '0',
    ],
    [
      'near expiry at the money: fifteen minutes at 80 % volatility',
      { spot: '100', strike: '100', rate: '0', volatility: '0.8', years: String(15 * MINUTE_YEARS) },
      '0.17049737',
      '0.50085249',
      '0.17049737',
      '-0.49914751',
    ],
  ])('%s', (_name, inputs, call, callDelta, put, putDelta) => {
    expect(priced('call', inputs)).toEqual({ premium: call, delta: callDelta })
    expect(priced('put', inputs)).toEqual({ premium: put, delta: putDelta })
  })
})

describe('blackScholes edges', () => {
  const base = { rate: '0.05', volatility: '0.6' }

  it('keeps put-call parity: c - p = S - K e^(-rT)', () => {
    for (const strike of ['80', '100', '125']) {
      const inputs = { ...base, spot: '100', strike, years: '0.25' }
      const call = blackScholes({ kind: 'call', ...inputs }).premium
      const put = blackScholes({ kind: 'put', ...inputs }).premium
      const forward = new Decimal(100).minus(new Decimal(strike).times(new Decimal(-0.05 * 0.25).exp()))
      expect(call.minus(put).minus(forward).abs().lessThan('0.00000002')).toBe(true)
    }
  })

  it('is worth its intrinsic value at and after expiry', () => {
    for (const years of ['0', '-0.001']) {
      expect(priced('call', { ...base, spot: '105', strike: '100', years })).toEqual({
        premium: '5',
        delta: '1',
      })
      expect(priced('put', { ...base, spot: '105', strike: '100', years })).toEqual({
        premium: '0',
        delta: '0',
      })
      expect(priced('put', { ...base, spot: '95', strike: '100', years }).premium).toBe('5')
    }
    expect(priced('call', { ...base, spot: '100', strike: '100', years: '0' })).toEqual({
      premium: '0',
      delta: '0.5',
    })
  })

  it('loses value smoothly as expiry nears, never below intrinsic', () => {
    const inputs = { ...base, spot: '101', strike: '100' }
    const premiums = ['0.1', '0.01', String(MINUTE_YEARS), '0'].map(
      (years) => blackScholes({ kind: 'call', ...inputs, years }).premium,
    )
    for (let index = 1; index < premiums.length; index++) {
      expect(premiums[index]!.lessThanOrEqualTo(premiums[index - 1]!)).toBe(true)
      expect(premiums[index]!.greaterThanOrEqualTo(1)).toBe(true)
    }
    expect(premiums.at(-1)!.toFixed()).toBe('1')
  })

  it('with no volatility is the discounted intrinsic value', () => {
    expect(priced('call', { spot: '100', strike: '90', rate: '0', volatility: '0', years: '1' })).toEqual({
      premium: '10',
      delta: '1',
    })
    expect(priced('put', { spot: '100', strike: '90', rate: '0', volatility: '0', years: '1' })).toEqual({
      premium: '0',
      delta: '0',
    })
  })

  it('refuses inputs no option has', () => {
    const inputs = { ...base, years: '0.5' }
    expect(() => blackScholes({ kind: 'call', ...inputs, spot: '0', strike: '10' })).toThrow(RangeError)
    expect(() => blackScholes({ kind: 'call', ...inputs, spot: '10', strike: '-1' })).toThrow(RangeError)
    expect(() => blackScholes({ kind: 'put', ...inputs, spot: 'abc', strike: '10' })).toThrow(RangeError)
    expect(() =>
      blackScholes({ kind: 'put', ...inputs, spot: '10', strike: '10', volatility: '-0.1' }),
    ).toThrow(RangeError)
  })

  it('measures time to expiry in 365-day years', () => {
    expect(yearsUntil(YEAR_MS, 0).toFixed()).toBe('1')
    expect(yearsUntil(0, YEAR_MS / 2).toFixed()).toBe('-0.5')
  })
})

describe('optionOrderCost', () => {
  it('charges a percent fee on the premium when feeType is 1', () => {
    const { cost, fee, total } = optionOrderCost('0.003', '206.06201869', { feeType: 1, feeValue: '1' })
    expect([cost.toFixed(), fee.toFixed(), total.toFixed()]).toEqual([
      '0.61818606',
      '0.00618187',
      '0.62436793',
    ])
  })

  it('charges a fixed usdt fee per order for any other feeType', () => {
    const { cost, fee, total } = optionOrderCost('2', '0.81', { feeType: 2, feeValue: '0.5' })
    expect([cost.toFixed(), fee.toFixed(), total.toFixed()]).toEqual(['1.62', '0.5', '2.12'])
  })

  it('never rounds a cost down', () => {
    expect(optionOrderCost('0.001', '0.00000001', { feeType: 1, feeValue: '0' }).cost.toFixed()).toBe(
      '0.00000001',
    )
  })
})

describe('breakEven', () => {
  it('is the strike plus the cost per unit for a call and minus it for a put', () => {
    expect(breakEven('call', '40', '4.76').toFixed()).toBe('44.76')
    expect(breakEven('put', '40', '0.81').toFixed()).toBe('39.19')
    expect(breakEven('put', '1', '3').toFixed()).toBe('0')
  })
})
