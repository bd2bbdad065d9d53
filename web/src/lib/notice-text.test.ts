import { describe, expect, it } from 'vitest'
import { precisionText, showCash, showPnl, showPrice, type UserNotice } from '@tradegate/shared'
import { noticeText } from './notice-text'

// The words of an event carry its money by the same display rule as the screens: a close's PnL at the
// PnL's places, rounded, whatever digits the exchange sent, so the toast and the order history agree.

const USDT_PLACES = 2
const format = {
  price: (value: unknown) => showPrice(value),
  pnl: showPnl,
  cash: showCash,
  money: (value: unknown) => precisionText(value, USDT_PLACES),
  decimal: (value: string) => value,
}
/** The translation's values, so a test reads what would fill the sentence. */
const valuesOf = (notice: Omit<UserNotice, 'id' | 'at'>) =>
  JSON.parse(
    noticeText((_key, values) => JSON.stringify(values), { id: 'n1', at: 0, ...notice }, format),
  ) as Record<string, string>

const close = { symbol: 'btcusdt', side: 'long', qty: '10', price: '65297.69', coin: 'usdt' } as const

describe('the money an event names', () => {
  it('is a PnL at four places, rounded, for every close and a funding payment', () => {
    for (const kind of ['stopLoss', 'takeProfit', 'liquidated', 'closeFilled', 'funding'] as const)
      expect(valuesOf({ kind, ...close, amount: '-1.65466216' }).amount, kind).toBe('-1.6547')
  })

  it("is a second contract's profit as a PnL, and an option's payout as cash", () => {
    const settled = { symbol: 'btcusdt', price: '65000', coin: 'usdt', amount: '12.345678' }
    expect(
      valuesOf({ kind: 'secondSettled', side: 'up', qty: '100', outcome: 'win', ...settled }).amount,
    ).toBe('12.3457')
    expect(valuesOf({ kind: 'optionSettled', side: 'call', qty: '0.01', ...settled }).amount).toBe('12.3457')
  })

  it("is a deposit or withdrawal at the coin's own places", () => {
    expect(
      valuesOf({ kind: 'withdrawalReviewed', coin: 'usdt', amount: '25.5', outcome: 'approved' }).amount,
    ).toBe('25.50')
  })
})
