import { describe, expect, it } from 'vitest'
import type { OptionPosition } from '@tradegate/shared'
import { atTheMoney, defaultLimit, formatTimeLeft, markOf, quoteOf, settledPnl } from './option-math'

const pricing = { volatility: '0.2', rate: '0.1' }
const HALF_YEAR_MS = 182.5 * 24 * 3600 * 1000

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
    expect(quoteOf('call', '40', HALF_YEAR_MS, '42', pricing, 0)?.premium.toFixed(2)).toBe('4.76')
    expect(quoteOf('call', '40', HALF_YEAR_MS, undefined, pricing, 0)).toBeNull()
    expect(quoteOf('call', '40', HALF_YEAR_MS, '0', pricing, 0)).toBeNull()
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

  it('marks the strike nearest the spot as at the money', () => {
    expect(atTheMoney(['100', '200', '300'], '240')).toBe('200')
    expect(atTheMoney(['100', '200', '300'], '260')).toBe('300')
    expect(atTheMoney([], '260')).toBeNull()
    expect(atTheMoney(['100'], undefined)).toBeNull()
  })

  it('takes as default limit the premium after a 0.5 % move of the price against the buyer', () => {
    const call = quoteOf('call', '40', HALF_YEAR_MS, '42.21', pricing, 0)!.premium.toFixed()
    const put = quoteOf('put', '40', HALF_YEAR_MS, '41.79', pricing, 0)!.premium.toFixed()
    expect(defaultLimit('call', '40', HALF_YEAR_MS, '42', pricing, 0)).toBe(call)
    expect(defaultLimit('put', '40', HALF_YEAR_MS, '42', pricing, 0)).toBe(put)
    expect(Number(call)).toBeGreaterThan(4.76)
    expect(defaultLimit('call', '40', HALF_YEAR_MS, undefined, pricing, 0)).toBeNull()
  })

  it('counts down in hours, minutes and seconds', () => {
    expect(formatTimeLeft(3_725_000)).toBe('01:02:05')
    expect(formatTimeLeft(86_400_000)).toBe('24:00:00')
    expect(formatTimeLeft(1)).toBe('00:00:01')
    expect(formatTimeLeft(-5000)).toBe('00:00:00')
  })
})
