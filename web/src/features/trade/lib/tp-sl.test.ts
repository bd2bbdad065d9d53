import { describe, expect, it } from 'vitest'
import { exitProblems } from './tp-sl'

describe('exitProblems', () => {
  it.each([
    // direction, opening price, take profit, stop loss, expected
    ['long', '3000', '3100', '2900', { takeProfit: null, stopLoss: null }],
    ['long', '3000', '2990', '2900', { takeProfit: 'above', stopLoss: null }],
    ['long', '3000', '3100', '3000', { takeProfit: null, stopLoss: 'below' }],
    ['short', '3000', '2900', '3100', { takeProfit: null, stopLoss: null }],
    ['short', '3000', '3000.01', '3100', { takeProfit: 'below', stopLoss: null }],
    ['short', '3000', '2900', '2999.99', { takeProfit: null, stopLoss: 'above' }],
    ['long', '3000', '', '', { takeProfit: null, stopLoss: null }],
    ['long', '3000', '0', '', { takeProfit: null, stopLoss: null }],
    ['long', '', '1', '99999', { takeProfit: null, stopLoss: null }],
  ] as const)('%s from %s: TP %s, SL %s', (direction, price, takeProfit, stopLoss, expected) => {
    expect(exitProblems(direction, price, takeProfit, stopLoss)).toEqual(expected)
  })
})
