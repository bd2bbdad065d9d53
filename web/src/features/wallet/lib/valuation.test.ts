import { describe, expect, it } from 'vitest'
import { add } from '@tradegate/shared'
import { valueBalances } from './valuation'

describe('valueBalances', () => {
  const prices: Record<string, string> = { btc: '67250.123456', eth: '3480.5', usdt: '1' }
  const priceOf = (coin: string) => prices[coin]

  it('values each coin over all its accounts at the shown price and totals exactly the shown values', () => {
    const valuation = valueBalances(
      [
        { coin: 'usdt', account: 'platform', available: '100.5', frozen: '20' },
        { coin: 'usdt', account: 'contract', available: '0.004', frozen: '0' },
        { coin: 'btc', account: 'platform', available: '0.00099099', frozen: '0' },
        { coin: 'eth', account: 'financial', available: '0.3333', frozen: '0' },
      ],
      priceOf,
    )
    expect(valuation.coins).toEqual([
      { coin: 'eth', amount: '0.3333', price: '3480.50', value: '1160.05' },
      { coin: 'usdt', amount: '120.504', price: '1.000000', value: '120.50' },
      { coin: 'btc', amount: '0.00099099', price: '67250.12', value: '66.64' },
    ])
    const sum = valuation.coins.reduce((total, row) => add(total, row.value ?? 0), add(0, 0))
    expect(valuation.total).toBe(sum.toFixed(2))
    expect(valuation.total).toBe('1347.19')
  })

  it('leaves a coin without a price out of the total instead of guessing', () => {
    const valuation = valueBalances(
      [{ coin: 'xyz', account: 'platform', available: '5', frozen: '0' }],
      priceOf,
    )
    expect(valuation.coins).toEqual([{ coin: 'xyz', amount: '5', price: undefined, value: undefined }])
    expect(valuation.total).toBe('0.00')
  })
})
