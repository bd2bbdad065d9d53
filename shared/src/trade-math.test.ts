import { describe, expect, it } from 'vitest'
import {
  contractOpening,
  contractPnl,
  contractSettlement,
  fundingPayment,
  mergedEntryPrice,
  liquidationPrice,
  marginShare,
  pnlPercent,
  spotMaxAmount,
  spotTotals,
  tradeFee,
  truncateMoney,
} from './trade-math'

// Every expected value below was worked out by hand; the comment beside a row shows the working.

const terms = { shareNumber: '10', openFee: '0.001', closeFee: '0.001' }

describe('truncateMoney', () => {
  it.each([
    ['1.123456789', '1.12345678'],
    ['-1.123456789', '-1.12345678'], // toward zero, not down
    ['0.000000009', '0'],
    ['2.5', '2.5'],
  ])('%s -> %s', (value, expected) => {
    expect(truncateMoney(value).toFixed()).toBe(expected)
  })
})

describe('spotTotals', () => {
  it.each([
    // amount, price, fee rate -> value, fee, cost, proceeds
    ['0.1', '0.3', '0.002', '0.03', '0.00006', '0.03006', '0.02994'],
    // 0.12345 × 67250.5 = 8302.074225; fee 16.60414845 has exactly 8 places
    ['0.12345', '67250.5', '0.002', '8302.074225', '16.60414845', '8318.67837345', '8285.47007655'],
    // fee 0.0000000555525 truncates to 0.00000005
    ['3', '0.000012345', '0.0015', '0.000037035', '0.00000005', '0.000037085', '0.000036985'],
    // fee 0.00123456789 truncates (rounding would give …57)
    ['1', '1.23456789', '0.001', '1.23456789', '0.00123456', '1.23580245', '1.23333333'],
    ['0', '100', '0.002', '0', '0', '0', '0'],
  ])('%s at %s, rate %s', (amount, price, rate, value, fee, cost, proceeds) => {
    const totals = spotTotals(amount, price, rate)
    expect(totals.value.toFixed()).toBe(value)
    expect(totals.fee.toFixed()).toBe(fee)
    expect(totals.cost.toFixed()).toBe(cost)
    expect(totals.proceeds.toFixed()).toBe(proceeds)
  })
})

describe('spotMaxAmount', () => {
  it.each([
    // 500 / (100 × 1.002) = 4.99001996…; 4.99002 would cost 499.002 + 0.998004 = 500.000004
    ['buy', '500', '100', '0.002', 5, '4.99001'],
    ['sell', '0.123456', '100', '0.002', 5, '0.12345'],
    // 0.000004 / 0.000001002 = 3.99…, but the fee on 4 (0.000000008) truncates to 0: 4 costs exactly 0.000004
    ['buy', '0.000004', '0.000001', '0.002', 0, '4'],
    ['buy', '1000', '0', '0.002', 5, '0'],
    ['buy', '0', '100', '0.002', 5, '0'],
    ['sell', '-3', '100', '0.002', 5, '0'],
  ] as const)('%s with %s at %s', (side, available, price, rate, places, expected) => {
    expect(spotMaxAmount(side, available, price, rate, places).toFixed()).toBe(expected)
  })

  it('never costs more than the balance', () => {
    for (const [available, price] of [
      ['123.45', '67250.37'],
      ['10', '0.1214'],
      ['99.99999999', '3.3333'],
    ] as const) {
      const amount = spotMaxAmount('buy', available, price, '0.002', 5)
      expect(spotTotals(amount, price, '0.002').cost.lessThanOrEqualTo(available)).toBe(true)
    }
  })
})

describe('contractOpening', () => {
  it.each([
    // shares, leverage, price, direction -> value, margin, open fee, close fee, cost, liquidation
    // 30 / 10 = 3 margin; 2000 × (30 − 3) / 30 = 1800
    ['3', 10, '2000', 'long', '30', '3', '0.03', '0.03', '3.03', '1800'],
    // 2000 × 33 / 30 = 2200
    ['3', 10, '2000', 'short', '30', '3', '0.03', '0.03', '3.03', '2200'],
    // leverage 1 on a long: the price would have to reach zero
    ['3', 1, '2000', 'long', '30', '30', '0.03', '0.03', '30.03', '0'],
    // 70 / 3 = 23.333…, truncated; 3480 × 46.66666667 / 70 = 2320.0000001657…
    ['7', 3, '3480', 'long', '70', '23.33333333', '0.07', '0.07', '23.40333333', '2320.00000016'],
    // 100x: a 1 % move eats the margin; 3012.34 × 1.01 = 3042.4634
    ['10', 100, '3012.34', 'short', '100', '1', '0.1', '0.1', '1.1', '3042.4634'],
    // 0.1234567 × 9.5 / 10 = 0.117283865, truncated (rounding would give …87)
    ['1', 20, '0.1234567', 'long', '10', '0.5', '0.01', '0.01', '0.51', '0.11728386'],
    // 0.1234567 × 10.5 / 10 = 0.129629535, truncated
    ['1', 20, '0.1234567', 'short', '10', '0.5', '0.01', '0.01', '0.51', '0.12962953'],
  ] as const)(
    '%s shares at %sx, %s, %s',
    (shares, leverage, price, direction, value, margin, openFee, closeFee, cost, liquidation) => {
      const opening = contractOpening(shares, leverage, price, direction, terms)
      expect(opening.value.toFixed()).toBe(value)
      expect(opening.margin.toFixed()).toBe(margin)
      expect(opening.openFee.toFixed()).toBe(openFee)
      expect(opening.closeFee.toFixed()).toBe(closeFee)
      expect(opening.cost.toFixed()).toBe(cost)
      expect(opening.liquidationPrice.toFixed()).toBe(liquidation)
    },
  )

  it('truncates a fee with more than 8 places', () => {
    // 10 × 0.00033333333 = 0.0033333333
    expect(tradeFee('10', '0.00033333333').toFixed()).toBe('0.00333333')
  })

  it('gives 0, not Infinity, for an empty leverage or value', () => {
    const opening = contractOpening('', 0, '2000', 'long', terms)
    expect(opening.margin.toFixed()).toBe('0')
    expect(liquidationPrice('2000', '0', '0', 'short').toFixed()).toBe('0')
  })
})

describe('contractPnl', () => {
  it.each([
    // direction, value, open, price -> pnl
    ['long', '100', '100', '110', '10'],
    ['short', '100', '100', '110', '-10'],
    // 10 × 1 / 3 = 3.333…, truncated
    ['long', '10', '3', '4', '3.33333333'],
    // toward zero on both sides: a loss is not rounded to …34
    ['short', '10', '3', '4', '-3.33333333'],
    ['long', '10', '3', '2', '-3.33333333'],
    ['long', '10', '0', '2', '0'],
  ] as const)('%s %s from %s to %s', (direction, value, open, price, expected) => {
    expect(contractPnl(direction, value, open, price).toFixed()).toBe(expected)
  })
})

describe('contractSettlement', () => {
  it.each([
    // margin, pnl, close fee -> pnl, fee, payout, liquidated
    ['3', '1', '0.03', '1', '0.03', '3.97', false],
    // only 0.01 of the margin is left: the fee takes that, nothing more
    ['3', '-2.99', '0.03', '-2.99', '0.01', '0', false],
    ['3', '-3', '0.03', '-3', '0', '0', true],
    // a loss beyond the margin is capped at the margin
    ['3', '-5', '0.03', '-3', '0', '0', true],
  ] as const)('margin %s, pnl %s, fee %s', (margin, pnl, fee, bookedPnl, takenFee, payout, liquidated) => {
    const settlement = contractSettlement(margin, pnl, fee)
    expect(settlement.pnl.toFixed()).toBe(bookedPnl)
    expect(settlement.fee.toFixed()).toBe(takenFee)
    expect(settlement.payout.toFixed()).toBe(payout)
    expect(settlement.liquidated).toBe(liquidated)
  })
})

describe('marginShare and pnlPercent', () => {
  it.each([
    ['15', '10', '3', '4.5'],
    // 10 / 3 truncated
    ['10', '3', '1', '3.33333333'],
    ['10', '3', '3', '10'],
    ['10', '3', '4', '10'],
  ])('%s margin on %s shares, closing %s', (margin, shares, closing, expected) => {
    expect(marginShare(margin, shares, closing).toFixed()).toBe(expected)
  })

  it('gives PnL as a percent of margin, 0 without a margin', () => {
    expect(pnlPercent('-10', '20').toFixed()).toBe('-50')
    expect(pnlPercent('5', '0').toFixed()).toBe('0')
  })
})

describe('mergedEntryPrice', () => {
  it.each([
    // value, open, added value, fill price -> entry
    // same price: the entry stays
    ['100', '2000', '100', '2000', '2000'],
    // 50 usdt at 2000 (0.025 coin) and 50 at 3000 (0.01666…): 100 / 0.041666… = 2400
    ['50', '2000', '50', '3000', '2400'],
    // the larger fill weighs more: 30 at 100 (0.3) + 10 at 200 (0.05): 40 / 0.35 = 114.2857142857…
    ['30', '100', '10', '200', '114.28571428'],
  ])('%s at %s joined by %s at %s enters at %s', (value, open, added, fill, entry) => {
    expect(mergedEntryPrice(value, open, added, fill).toFixed()).toBe(entry)
  })

  it('keeps PnL additive: the merged position gains what the two fills gain', () => {
    const entry = mergedEntryPrice('50', '2000', '50', '3000')
    const apart = contractPnl('long', '50', '2000', '2700').plus(contractPnl('long', '50', '3000', '2700'))
    expect(contractPnl('long', '100', entry, '2700').toFixed()).toBe(apart.toFixed())
  })
})

describe('fundingPayment', () => {
  it.each([
    // direction, value, open, mark, rate -> payment
    // 100 usdt at 2000 is 0.05 coin; at a 2200 mark it is worth 110; 0.01 % of that is 0.011, paid
    ['long', '100', '2000', '2200', '0.0001', '-0.011'],
    ['short', '100', '2000', '2200', '0.0001', '0.011'],
    // a negative rate: shorts pay longs
    ['long', '100', '2000', '2000', '-0.0002', '0.02'],
  ])('a %s of %s opened at %s, mark %s, rate %s: %s', (direction, value, open, mark, rate, payment) => {
    expect(fundingPayment(direction as 'long' | 'short', value, open, mark, rate).toFixed()).toBe(payment)
  })
})
