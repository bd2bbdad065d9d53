import { describe, expect, it } from 'vitest'
import { Decimal } from 'decimal.js'
import type { OptionPosition } from '@tradegate/shared'
import {
  atTheMoney,
  bidOf,
  closedBy,
  defaultLimit,
  defaultSaleFloor,
  formatTimeLeft,
  greekText,
  thetaPerUnit,
  impliedOf,
  markOf,
  quoteOf,
  saleOf,
  settledPnl,
} from './option-math'

const pricing = { volatility: '0.2', rate: '0.1' }
const HALF_YEAR_MS = 182.5 * 24 * 3600 * 1000
const CALL = { kind: 'call', strike: '40', expiresAt: HALF_YEAR_MS } as const
const PUT = { ...CALL, kind: 'put' } as const

const position: OptionPosition = {
  id: 1,
  coin: 'btc',
  symbol: 'btcusdt',
  kind: 'call',
  strike: '40',
  expiresAt: HALF_YEAR_MS,
  quantity: '2',
  premium: '4.5',
  cost: '9',
  fee: '0.09',
  status: 'open',
  settlePrice: '',
  payout: '0',
  createdAt: 0,
}

describe('option screen arithmetic', () => {
  it('quotes the textbook call from a chain and a live price, and nothing without a price', () => {
    expect(quoteOf(CALL, '42', pricing, 0)?.premium.toFixed(2)).toBe('4.76')
    expect(quoteOf(CALL, undefined, pricing, 0)).toBeNull()
    expect(quoteOf(CALL, '0', pricing, 0)).toBeNull()
  })

  it('marks an open position at the live premium and counts premium and fee against it', () => {
    const mark = markOf(position, '42', pricing, 0)!
    expect(mark.value.toFixed(8)).toBe('9.51884478')
    expect(mark.pnl.toFixed(8)).toBe('0.42884478')
    expect(markOf(position, '42', undefined, 0)).toBeNull()
  })

  it('gives a settled position its payout less what it cost', () => {
    expect(settledPnl({ ...position, status: 'settled', payout: '10' }).toFixed()).toBe('0.91')
    expect(settledPnl({ ...position, status: 'settled', payout: '0' }).toFixed()).toBe('-9.09')
  })

  it('tells a position sold back before expiry from one settled at expiry', () => {
    expect(closedBy({ ...position, status: 'settled', payout: '10' })).toBe('settled')
    expect(closedBy({ ...position, status: 'settled', payout: '9.5', salePrice: '9.6' })).toBe('sold')
  })

  it('marks the strike nearest the spot as at the money', () => {
    expect(atTheMoney(['100', '200', '300'], '240')).toBe('200')
    expect(atTheMoney(['100', '200', '300'], '260')).toBe('300')
    expect(atTheMoney([], '260')).toBeNull()
    expect(atTheMoney(['100'], undefined)).toBeNull()
  })

  it('takes as default limit the premium after a 0.5 % move of the price against the buyer', () => {
    const call = quoteOf(CALL, '42.21', pricing, 0)!.premium.toFixed()
    const put = quoteOf(PUT, '41.79', pricing, 0)!.premium.toFixed()
    expect(defaultLimit(CALL, '42', pricing, 0)).toBe(call)
    expect(defaultLimit(PUT, '42', pricing, 0)).toBe(put)
    expect(Number(call)).toBeGreaterThan(4.76)
    expect(defaultLimit(CALL, undefined, pricing, 0)).toBeNull()
  })

  it("bids 3 % under the textbook call's premium and reads the chain's volatility back from the ask", () => {
    const quote = quoteOf(CALL, '42', pricing, 0)!
    expect(bidOf(quote).toFixed()).toBe('4.61663971')
    const implied = impliedOf(CALL, '42', pricing, 0)!
    expect(implied.ask?.toFixed()).toBe('0.2')
    // a bid 14 cents under the premium: 18.34 % (bisection in double precision: 0.183443)
    expect(implied.bid?.toFixed()).toBe('0.1834')
    expect(impliedOf(CALL, undefined, pricing, 0)).toBeNull()
  })

  it('takes as default sale floor the bid after a 0.5 % move of the price against the holder', () => {
    const callBid = bidOf(quoteOf(CALL, '41.79', pricing, 0)!).toFixed()
    const putBid = bidOf(quoteOf(PUT, '42.21', pricing, 0)!).toFixed()
    expect(defaultSaleFloor(position, '42', pricing, 0)).toBe(callBid)
    expect(defaultSaleFloor({ ...position, kind: 'put' }, '42', pricing, 0)).toBe(putBid)
    expect(Number(callBid)).toBeLessThan(4.61663971)
    expect(defaultSaleFloor(position, undefined, pricing, 0)).toBeNull()
  })

  it('pays a sale the bid times the quantity, less the fee, and nothing without a price', () => {
    const sale = saleOf(position, '42', { ...pricing, feeType: 1, feeValue: '1' }, 0)!
    // 2 × 4.61663971 = 9.23327942, less 1 % rounded up
    expect([sale.bid, sale.proceeds, sale.fee, sale.net].map((value) => value.toFixed())).toEqual([
      '4.61663971',
      '9.23327942',
      '0.0923328',
      '9.14094662',
    ])
    expect(saleOf(position, undefined, { ...pricing, feeType: 1, feeValue: '1' }, 0)).toBeNull()
  })

  it('writes gamma, theta and vega with four significant digits and no exponent', () => {
    const quote = quoteOf(CALL, '42', pricing, 0)!
    expect([
      greekText(quote.gamma, 'gamma'),
      greekText(quote.theta, 'theta'),
      greekText(quote.vega, 'vega'),
    ]).toEqual(['0.04996', '-0.01249', '0.08813'])
    expect(greekText(quote.gamma.dividedBy(1e6), 'gamma')).toBe('0.00000004996')
    expect(greekText(quote.gamma.times(0), 'gamma')).toBe('0')
  })

  it('writes every delta at the same four places, rounded, so a column of them lines up', () => {
    const deltas = ['0.96855', '-0.031449', '-0.00004', '1', '-0.5'].map((value) =>
      greekText(new Decimal(value), 'delta'),
    )
    expect(deltas).toEqual(['0.9686', '-0.0314', '0.0000', '1.0000', '-0.5000'])
    const quote = quoteOf(CALL, '42', pricing, 0)!
    expect(greekText(quote.delta, 'delta')).toMatch(/^-?\d\.\d{4}$/)
  })

  it('counts down in hours, minutes and seconds', () => {
    expect(formatTimeLeft(3_725_000)).toBe('01:02:05')
    expect(formatTimeLeft(86_400_000)).toBe('24:00:00')
    expect(formatTimeLeft(1)).toBe('00:00:01')
    expect(formatTimeLeft(-5000)).toBe('00:00:00')
  })

  // the chain of the walk that found −14,090 a day: BTC about 67,260, every strike priced at 125.57 %
  const walked = { volatility: '1.2557', rate: '0.05' }
  const MINUTE = 60_000
  const strikeOf = (strike: string, kind: 'call' | 'put', expiresAt: number) => ({ kind, strike, expiresAt })

  it('shows theta per minute 7 minutes from expiry, where a day of it would be far more than the premium', () => {
    const quote = quoteOf(strikeOf('67200', 'call', 7 * MINUTE), '67263', walked, 0)!
    expect(quote.theta.toNumber()).toBeLessThan(-10_000)
    expect(quote.premium.toNumber()).toBeGreaterThan(100)
    const theta = thetaPerUnit(quote.theta, 7 * MINUTE)
    expect(theta.unit).toBe('minute')
    expect(theta.value.toNumber()).toBeCloseTo(quote.theta.toNumber() / 1440, 6)
    // seven minutes at today's rate of decay is less than the option is worth
    expect(theta.value.times(7).abs().lessThan(quote.premium)).toBe(true)
  })

  it.each([
    [3 * 24 * 60 * MINUTE, 'day'],
    [24 * 60 * MINUTE, 'day'],
    [20 * 60 * MINUTE, 'hour'],
    [60 * MINUTE, 'hour'],
    [59 * MINUTE, 'minute'],
    [40_000, 'second'],
    [1000, 'second'],
  ] as const)('%i ms before expiry: theta per %s, never more than the at-the-money premium', (left, unit) => {
    const quote = quoteOf(strikeOf('67263', 'put', left), '67263', walked, 0)!
    const theta = thetaPerUnit(quote.theta, left)
    expect(theta.unit).toBe(unit)
    // one unit of decay, the longest unit that fits in the time left, is at most what the option is worth
    expect(theta.value.abs().lessThanOrEqualTo(quote.premium)).toBe(true)
  })

  it("reads every strike's volatility back from its mark: the chain's, on both sides", () => {
    for (const strike of ['66600', '67000', '67200', '67400', '68200'])
      for (const kind of ['call', 'put'] as const) {
        const implied = impliedOf(strikeOf(strike, kind, 15 * MINUTE), '67263', walked, 0)!
        expect({ strike, kind, iv: implied.ask?.toFixed() }).toEqual({ strike, kind, iv: '1.2557' })
      }
  })
})
