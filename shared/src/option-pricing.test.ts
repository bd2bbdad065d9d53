import { Decimal } from 'decimal.js'
import { describe, expect, it } from 'vitest'
import {
  YEAR_MS,
  blackScholes,
  breakEven,
  impliedVolatility,
  optionBid,
  optionOrderCost,
  optionSaleProceeds,
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

describe('greeks against reference values', () => {
  // [name, inputs, call {delta, gamma, theta per day, vega per point}, put {delta, theta}]
  // from the closed forms in double precision (Python's math.erfc), rounded to 8 places
  it.each<[string, Omit<OptionInputs, 'kind'>, string[], string[]]>([
    [
      'at the money, one year',
      { spot: '100', strike: '100', rate: '0.05', volatility: '0.2', years: '1' },
      ['0.63683065', '0.01876202', '-0.01757268', '0.37524035'],
      ['-0.36316935', '-0.00454214'],
    ],
    [
      // Hull's example: Θ = -4.31 a year, Γ = 0.066, vega = 12.1 per unit of volatility
      "Hull's delta-hedging call",
      { spot: '49', strike: '50', rate: '0.05', volatility: '0.2', years: String(20 / 52) },
      ['0.52160466', '0.06554404', '-0.01179542', '0.1210548'],
      ['-0.47839534', '-0.00507657'],
    ],
    [
      'Hull example 15.6',
      { spot: '42', strike: '40', rate: '0.1', volatility: '0.2', years: '0.5' },
      ['0.77913129', '0.04996267', '-0.01249066', '0.08813415'],
      ['-0.22086871', '-0.00206623'],
    ],
    [
      'fifteen minutes at the money, 80 %',
      { spot: '100', strike: '100', rate: '0', volatility: '0.8', years: String(15 * MINUTE_YEARS) },
      ['0.50085249', '0.93347166', '-8.1838611', '0.00213121'],
      ['-0.49914751', '-8.1838611'],
    ],
  ])('%s', (_name, inputs, [delta, gamma, theta, vega], [putDelta, putTheta]) => {
    const call = blackScholes({ kind: 'call', ...inputs })
    const put = blackScholes({ kind: 'put', ...inputs })
    expect([call.delta, call.gamma, call.theta, call.vega].map((figure) => figure.toFixed())).toEqual([
      delta,
      gamma,
      theta,
      vega,
    ])
    expect([put.delta, put.gamma, put.theta, put.vega].map((figure) => figure.toFixed())).toEqual([
      putDelta,
      gamma,
      putTheta,
      vega,
    ])
  })

  it('has no gamma, theta or vega once expired or without volatility', () => {
    for (const inputs of [
      { spot: '105', strike: '100', rate: '0.05', volatility: '0.6', years: '0' },
      { spot: '105', strike: '100', rate: '0', volatility: '0', years: '1' },
    ]) {
      const { gamma, theta, vega } = blackScholes({ kind: 'call', ...inputs })
      expect([gamma, theta, vega].map((figure) => figure.toFixed())).toEqual(['0', '0', '0'])
    }
  })
})

describe('optionBid', () => {
  it('is the premium less 3 %, rounded down to 8 places', () => {
    expect(optionBid('10.45058357').toFixed()).toBe('10.13706606')
    expect(optionBid('100').toFixed()).toBe('97')
    expect(optionBid('0.00000001').toFixed()).toBe('0')
    expect(optionBid('0').toFixed()).toBe('0')
  })
})

describe('impliedVolatility', () => {
  const hull = { spot: '42', strike: '40', rate: '0.1', years: '0.5' }

  it.each<[OptionKind, string, string]>([
    ['call', '4.75942239', '0.2'],
    ['put', '0.80859937', '0.2'],
    // Hull's textbook premiums, rounded to cents (bisection in double precision: 0.200066, 0.200159)
    ['call', '4.76', '0.2001'],
    ['put', '0.81', '0.2002'],
  ])('a %s at %s implies %s', (kind, price, expected) => {
    expect(impliedVolatility({ kind, ...hull, price })?.toFixed()).toBe(expected)
  })

  it('recovers the volatility a premium was priced with, from far and near guesses', () => {
    const inputs = { spot: '100', strike: '100.5', rate: '0.05', years: String(15 * MINUTE_YEARS) }
    const price = blackScholes({ kind: 'call', ...inputs, volatility: '0.8' }).premium
    for (const guess of ['0.05', '0.79', '5']) {
      expect(impliedVolatility({ kind: 'call', ...inputs, price, guess })?.toFixed()).toBe('0.8')
    }
  })

  it('is null for prices no volatility gives and for expired options', () => {
    // below the discounted intrinsic value 42 - 40·e^(-0.05) = 3.951…
    expect(impliedVolatility({ kind: 'call', ...hull, price: '3.9' })).toBeNull()
    // a call is never worth more than the spot
    expect(impliedVolatility({ kind: 'call', ...hull, price: '43' })).toBeNull()
    expect(impliedVolatility({ kind: 'call', ...hull, price: '0' })).toBeNull()
    expect(impliedVolatility({ kind: 'call', ...hull, years: '0', price: '2' })).toBeNull()
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

describe('optionSaleProceeds', () => {
  it('pays quantity × bid rounded down, less a percent fee rounded up', () => {
    const { proceeds, fee, net } = optionSaleProceeds('0.003', '199.88015812', { feeType: 1, feeValue: '1' })
    expect([proceeds.toFixed(), fee.toFixed(), net.toFixed()]).toEqual([
      '0.59964047',
      '0.00599641',
      '0.59364406',
    ])
  })

  it('takes a fixed fee per order, but never more than the proceeds', () => {
    const fixed = optionSaleProceeds('2', '0.81', { feeType: 2, feeValue: '0.5' })
    expect([fixed.proceeds.toFixed(), fixed.fee.toFixed(), fixed.net.toFixed()]).toEqual([
      '1.62',
      '0.5',
      '1.12',
    ])
    const small = optionSaleProceeds('1', '0.2', { feeType: 2, feeValue: '0.5' })
    expect([small.fee.toFixed(), small.net.toFixed()]).toEqual(['0.2', '0'])
  })
})
