import { describe, expect, it } from 'vitest'
import { contractOpening, contractPnl, spotTotals, type Balance } from '@tradegate/shared'
import {
  availableOf,
  contractPreview,
  formatCountdown,
  leverageChoices,
  livePnl,
  pnlPercent,
  sanitiseAmount,
  typedAmountProblem,
  secondsLeft,
  spotAmountForPercent,
  spotEstimate,
} from './order-math'

const contract = { shareNumber: '10', openFee: '0.001', closeFee: '0.001' }

describe('typedAmountProblem', () => {
  it('names what makes typed text no amount of the coin, and nothing for one it can take', () => {
    expect(typedAmountProblem('0.123456', 5)).toBe('amountDecimals')
    expect(typedAmountProblem('0.12345', 5)).toBeNull()
    expect(typedAmountProblem('7.', 0)).toBeNull()
    expect(typedAmountProblem('7.1', 0)).toBe('amountDecimals')
    expect(typedAmountProblem('1'.repeat(21), 2)).toBe('amountWholeDigits')
    // leading zeros are no digits of the amount
    expect(typedAmountProblem(`000${'1'.repeat(20)}.5`, 2)).toBeNull()
    expect(typedAmountProblem('', 2)).toBeNull()
  })
})

describe('sanitiseAmount', () => {
  it.each([
    ['12.3456', 2, '12.34'],
    ['1,5', 4, '1.5'],
    ['abc1.2.3', 3, '1.23'],
    ['7.9', 0, '7'],
    ['.5', 2, '.5'],
    ['', 2, ''],
  ])('%s with %i places gives %s', (input, places, expected) => {
    expect(sanitiseAmount(input, places)).toBe(expected)
  })
})

describe('spot figures', () => {
  it('estimates total and fee exactly', () => {
    const { total, fee } = spotEstimate('0.1', '0.3', { feeRate: '0.002' })
    expect(total.toFixed()).toBe('0.03')
    expect(fee.toFixed()).toBe('0.00006')
  })

  it('buys with a share of the quote balance, fee included, truncated to the coin precision', () => {
    const pair = { feeRate: '0.002', coinPrecision: 5 }
    // 50 % of 1000 = 500 usdt; 500 / (100 × 1.002) = 4.99001996…
    expect(spotAmountForPercent(50, 'buy', '1000', '100', pair)).toBe('4.99001')
    expect(spotAmountForPercent(100, 'sell', '0.123456', '100', pair)).toBe('0.12345')
    expect(spotAmountForPercent(25, 'buy', '1000', '0', pair)).toBe('0')
  })

  it('reads one account of one coin from the balances', () => {
    const balances: Balance[] = [
      { coin: 'usdt', account: 'platform', available: '80', frozen: '0' },
      { coin: 'usdt', account: 'contract', available: '5', frozen: '1' },
    ]
    expect(availableOf(balances, 'usdt', 'contract')).toBe('5')
    expect(availableOf(balances, 'btc', 'platform')).toBe('0')
    expect(availableOf(undefined, 'usdt', 'platform')).toBe('0')
  })
})

describe('contract preview', () => {
  it('splits the leverage list', () => {
    expect(leverageChoices({ leverage: '5,10, 20,x,100' })).toEqual([5, 10, 20, 100])
  })

  it('gives margin, fees and a liquidation price below a long and above a short', () => {
    const long = contractPreview('3', 10, '2000', 'long', contract)
    expect(long.value.toFixed()).toBe('30')
    expect(long.margin.toFixed()).toBe('3')
    expect(long.openFee.toFixed()).toBe('0.03')
    expect(long.closeFee.toFixed()).toBe('0.03')
    expect(long.cost.toFixed()).toBe('3.03')
    expect(long.liquidationPrice.toFixed()).toBe('1800')
    expect(contractPreview('3', 10, '2000', 'short', contract).liquidationPrice.toFixed()).toBe('2200')
    // leverage 1 on a long: the price would have to reach zero
    expect(contractPreview('3', 1, '2000', 'long', contract).liquidationPrice.toFixed()).toBe('0')
  })

  it('follows the mark price with PnL signed by direction', () => {
    const position = { direction: 'long' as const, shares: '10', openPrice: '100' }
    expect(livePnl(position, '110', '10').toFixed()).toBe('10')
    expect(livePnl({ ...position, direction: 'short' }, '110', '10').toFixed()).toBe('-10')
    expect(pnlPercent(livePnl(position, '90', '10'), '20').toFixed()).toBe('-50')
  })
})

describe('countdown', () => {
  it('rounds up to whole seconds and stops at zero', () => {
    expect(secondsLeft(10_500, 10_000)).toBe(1)
    expect(secondsLeft(9_000, 10_000)).toBe(0)
    expect(formatCountdown(75)).toBe('01:15')
    expect(formatCountdown(0)).toBe('00:00')
  })
})

describe('the same math as the exchange', () => {
  it('previews with the shared functions, so a preview equals the fill at the same price', () => {
    const shared = contractOpening('7', 20, '3012.37', 'short', contract)
    expect(contractPreview('7', 20, '3012.37', 'short', contract)).toEqual(shared)
    const { value, fee } = spotTotals('0.123', '2990.55', '0.002')
    expect(spotEstimate('0.123', '2990.55', { feeRate: '0.002' })).toEqual({ total: value, fee })
    const position = { direction: 'short' as const, shares: '7', openPrice: '3012.37' }
    expect(livePnl(position, '3050', '10')).toEqual(contractPnl('short', '70', '3012.37', '3050'))
  })

  it('truncates fees and PnL to 8 places as the exchange does', () => {
    // 0.123 × 2990.55 = 367.83765; fee 0.7356753
    expect(spotEstimate('0.123', '2990.55', { feeRate: '0.002' }).fee.toFixed()).toBe('0.7356753')
    // 70 × 37.63 / 3012.37 = 0.874427776…
    const position = { direction: 'short' as const, shares: '7', openPrice: '3012.37' }
    expect(livePnl(position, '3050', '10').toFixed()).toBe('-0.87442777')
    // 0.1234567 × 9.5 / 10 = 0.117283865
    expect(contractPreview('1', 20, '0.1234567', 'long', contract).liquidationPrice.toFixed()).toBe(
      '0.11728386',
    )
  })
})
