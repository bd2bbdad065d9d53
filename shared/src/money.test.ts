import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { CALLS, CALL_NAMES, amountFieldsOf, type CallDefinition } from './calls'
import { checkAmount, scaleField, MONEY_TEXT_PATTERN, type AmountScale } from './money'
import { Amount, AmountText, USDT_SCALE } from './schemas'

// One money rule for every amount: digits and one point, no sign or exponent, at most the coin's places.

describe('checkAmount', () => {
  it.each([
    ['1', {}],
    ['0.5', {}],
    ['20.000000000000000001', {}],
    ['0.123456789012345678', {}],
    ['12345678901234567890', {}],
    ['1.25', { maxDecimals: 2 }],
    ['0', { allowZero: true }],
    ['0.000', { allowZero: true }],
    ['007.5', {}],
  ])('takes %s with %o', (text, rule) => {
    expect(checkAmount(text, rule)).toBeNull()
  })

  it.each([
    ['20.000000000000000001', { maxDecimals: 10 }, 'tooManyDecimals'],
    ['0.000000000000000001', { maxDecimals: 10 }, 'tooManyDecimals'],
    ['0.1234567890123456789', {}, 'tooManyDecimals'],
    ['1.000000000000000000000', {}, 'tooManyDecimals'],
    ['1.255', { maxDecimals: 2 }, 'tooManyDecimals'],
    ['1.5', { maxDecimals: 0 }, 'tooManyDecimals'],
    ['1.0000000000000000001', { maxDecimals: 30 }, 'tooManyDecimals'],
    ['123456789012345678901', {}, 'tooManyDigits'],
    ['5e-324', {}, 'notADecimal'],
    ['1e-7', {}, 'notADecimal'],
    ['1E7', {}, 'notADecimal'],
    ['-1', {}, 'notADecimal'],
    ['+1', {}, 'notADecimal'],
    ['1.', {}, 'notADecimal'],
    ['.5', {}, 'notADecimal'],
    ['1.2.3', {}, 'notADecimal'],
    [' 1', {}, 'notADecimal'],
    ['1 ', {}, 'notADecimal'],
    ['0x10', {}, 'notADecimal'],
    ['Infinity', {}, 'notADecimal'],
    ['NaN', {}, 'notADecimal'],
    ['١٢', {}, 'notADecimal'],
    ['１２', {}, 'notADecimal'],
    ['', {}, 'notADecimal'],
    ['0', {}, 'zero'],
    ['0.000000000000000000', {}, 'zero'],
    ['000', {}, 'zero'],
  ])('refuses %s with %o as %s', (text, rule, error) => {
    expect(checkAmount(text, rule)).toBe(error)
  })

  it('is what the schemas of every amount are built from', () => {
    const money = Amount(USDT_SCALE)
    const moneyText = AmountText(USDT_SCALE)
    expect((moneyText as { pattern?: string }).pattern).toBe(MONEY_TEXT_PATTERN)
    expect(Value.Check(money, '1.5')).toBe(true)
    expect(Value.Check(money, 1.5)).toBe(true)
    expect(Value.Check(money, '-1')).toBe(false)
    expect(Value.Check(money, -1)).toBe(false)
    expect(Value.Check(moneyText, '0.1234567890123456789')).toBe(false)
  })

  it('has no amount without a scale: the marker must name one', () => {
    // @ts-expect-error an amount without its rule does not type-check
    Amount()
    // @ts-expect-error nor with a rule that names no scale (the old silent 18-place default)
    AmountText({ allowZero: true })
    expect(true).toBe(true)
  })
})

/** What a scale reads, written the way the README's Amounts table says it. */
function describeScale(scale: AmountScale): string {
  if ('places' in scale) return `${scale.places} places`
  if ('coin' in scale) return scale.coin
  if ('product' in scale) return `${scale.product} product of ${scale.field}`
  return `${scale.kind} of ${scale.field}`
}

describe('the amount fields of the call table', () => {
  it('gives every amount field of every call a scale, read from a field the same part of the call has', () => {
    const scales = CALL_NAMES.flatMap((name) =>
      amountFieldsOf(CALLS[name]).map(({ part, key, rule }) => {
        const field = scaleField(rule.scale)
        if (field !== null) {
          const properties = ((CALLS[name] as CallDefinition)[part] as { properties?: object } | undefined)
            ?.properties
          expect(Object.keys(properties ?? {}), `${name} ${part}.${key} reads ${field}`).toContain(field)
        }
        return `${name} ${part}.${key}: ${describeScale(rule.scale)}`
      }),
    )
    expect(scales.sort()).toEqual(
      [
        'transferFunds body.amount: coin of coin',
        'rechargeSubmit body.amount: coin of coin',
        'withdrawSubmit query.amount: coin of coin',
        'currencyExchange body.amount: coin of from',
        'optionOrderSubmit body.strike: usdt',
        'optionOrderSubmit body.quantity: coin of coin',
        'optionOrderSubmit body.maxPremium: usdt',
        'optionOrderSell body.minPrice: usdt',
        'spotOrderSubmit body.price: spotPrice of symbol',
        'spotOrderSubmit body.amount: spotQuantity of symbol',
        'secondOrderCreate body.amount: usdt',
        'contractOrderSubmit body.price: contractPrice of symbol',
        'contractOrderSubmit body.shares: 0 places',
        'contractOrderSubmit body.stopLoss: contractPrice of symbol',
        'contractOrderSubmit body.takeProfit: contractPrice of symbol',
        'contractOrderSubmit body.triggerPrice: contractPrice of symbol',
        'contractOrderAmend body.price: usdt',
        'contractOrderAmend body.shares: 0 places',
        'contractOrderAmend body.triggerPrice: usdt',
        'positionStop query.shares: 0 places',
        'positionStop query.price: usdt',
        'positionAdjustMargin query.money: usdt',
        'lossSet body.stopLoss: usdt',
        'lossSet body.takeProfit: usdt',
        'followStart body.amount: usdt',
        'traderApply body.amount: usdt',
        'proxySubscribe body.amount: proxy product of productId',
        'financeSubscribe body.amount: finance product of productId',
      ].sort(),
    )
  })

  it('marks every field that moves or prices money, and only those', () => {
    const marked = CALL_NAMES.flatMap((name) =>
      amountFieldsOf(CALLS[name]).map(
        ({ part, key, rule }) => `${name} ${part}.${key}${rule.allowZero ? ' (0 allowed)' : ''}`,
      ),
    )
    expect(marked.sort()).toEqual(
      [
        'transferFunds body.amount',
        'rechargeSubmit body.amount',
        'withdrawSubmit query.amount',
        'currencyExchange body.amount',
        'optionOrderSubmit body.strike',
        'optionOrderSubmit body.quantity',
        'optionOrderSubmit body.maxPremium',
        'spotOrderSubmit body.price',
        'spotOrderSubmit body.amount',
        'secondOrderCreate body.amount',
        'contractOrderSubmit body.price',
        'contractOrderSubmit body.shares',
        'contractOrderSubmit body.stopLoss (0 allowed)',
        'contractOrderSubmit body.takeProfit (0 allowed)',
        'contractOrderSubmit body.triggerPrice',
        'contractOrderAmend body.price',
        'contractOrderAmend body.shares',
        'contractOrderAmend body.triggerPrice',
        'positionStop query.shares',
        'positionStop query.price',
        'positionAdjustMargin query.money',
        'lossSet body.stopLoss (0 allowed)',
        'lossSet body.takeProfit (0 allowed)',
        'optionOrderSell body.minPrice (0 allowed)',
        'followStart body.amount',
        'traderApply body.amount',
        'proxySubscribe body.amount',
        'financeSubscribe body.amount',
      ].sort(),
    )
  })
})
