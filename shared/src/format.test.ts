import { Decimal } from 'decimal.js'
import { describe, expect, it } from 'vitest'
import {
  PRICE_THRESHOLDS,
  SMALL_CHANGE_FLOOR,
  add,
  changePercent,
  div,
  formatPercent,
  formatPrice,
  mul,
  sub,
  toDecimal,
} from './format'

describe('toDecimal', () => {
  it.each<[string, unknown, string]>([
    ['undefined', undefined, '0'],
    ['null', null, '0'],
    ['empty string', '', '0'],
    ['whitespace', '  \t ', '0'],
    ['garbage', 'abc', '0'],
    ['number followed by garbage', '12abc', '0'],
    ['thousands separator', '1,000', '0'],
    ['NaN', NaN, '0'],
    ['Infinity', Infinity, '0'],
    ['Infinity string', 'Infinity', '0'],
    ['hex string', '0x10', '0'],
    ['overflowing exponent', '1e99999999999999999', '0'],
    ['object', { value: 1 }, '0'],
    ['boolean', true, '0'],
    ['integer', 42, '42'],
    ['fraction', 0.1, '0.1'],
    ['negative', -3.5, '-3.5'],
    ['numeric string', '123.456', '123.456'],
    ['padded numeric string', ' 7.25 ', '7.25'],
    ['negative string', '-0.0001', '-0.0001'],
    ['leading dot', '.5', '0.5'],
    ['exponent string', '1e-7', '0.0000001'],
    ['signed exponent string', '-2.5E+3', '-2500'],
    ['bigint', 12345678901234567890n, '12345678901234567890'],
    ['Decimal instance', new Decimal('9.99'), '9.99'],
  ])('%s', (_case, input, expected) => {
    expect(toDecimal(input).toFixed()).toBe(expected)
  })
})

describe('decimal helpers', () => {
  it.each<[string, () => Decimal, string]>([
    ['add is exact where floats are not', () => add(0.1, 0.2), '0.3'],
    ['add treats empty as 0', () => add('', '5'), '5'],
    [
      'add keeps large balances exact',
      () => add('123456789012345678901234.5', '0.25'),
      '123456789012345678901234.75',
    ],
    ['sub', () => sub('1', '0.9'), '0.1'],
    ['sub treats empty as 0', () => sub(undefined, 2), '-2'],
    ['mul', () => mul('1.1', '1.1'), '1.21'],
    ['mul with garbage', () => mul('abc', 3), '0'],
    ['div', () => div(1, 4), '0.25'],
    ['div by zero gives 0', () => div(5, 0), '0'],
    ['div by empty gives 0', () => div(5, null), '0'],
    ['div of empty gives 0', () => div('', 3), '0'],
  ])('%s', (_case, compute, expected) => {
    expect(compute().toFixed()).toBe(expected)
  })
})

describe('formatPrice', () => {
  it.each<[string, unknown, string]>([
    ['zero', 0, '0.00'],
    ['negative zero', '-0', '0.00'],
    ['undefined', undefined, '0.00'],
    ['null', null, '0.00'],
    ['empty string', '', '0.00'],
    ['garbage', 'abc', '0.00'],
    // under 0.00001: 6 significant digits
    ['exponent string', '1e-7', '0.000000100000'],
    ['just under 0.00001', '0.0000099999', '0.00000999990'],
    ['rounded half up to 6 significant', '0.00000123456789', '0.00000123457'],
    ['tiny exponent stays plain', '1.5e-12', '0.00000000000150000'],
    // 0.00001 up to 0.0001: 4 significant digits
    ['exactly 0.00001', '0.00001', '0.00001000'],
    ['just under 0.0001', '0.00009999', '0.00009999'],
    ['rounded to 4 significant', '0.000099998', '0.00010000'],
    // 0.0001 up to 0.001: 2 significant digits
    ['exactly 0.0001', '0.0001', '0.00010'],
    ['just under 0.001', '0.000994', '0.00099'],
    // 0.001 up to 10: 6 decimals
    ['exactly 0.001', '0.001', '0.001000'],
    ['keeps trailing zeros', 5, '5.000000'],
    ['just under 10 rounds up', '9.9999999', '10.000000'],
    ['rounds half up under 10', '1.2345675', '1.234568'],
    ['rounds down below half under 10', '1.2345674', '1.234567'],
    // 10 up to 100: 4 decimals
    ['exactly 10', 10, '10.0000'],
    ['just under 100', '99.99994', '99.9999'],
    ['rounds up to 100', '99.999999', '100.0000'],
    // 100 and up: 2 decimals
    ['exactly 100', 100, '100.00'],
    ['keeps trailing zeros from 100', 150, '150.00'],
    ['rounds from 100', '100.999', '101.00'],
    ['an entry of 150.6159 shows 150.62', '150.6159', '150.62'],
    ['150.6149 shows 150.61', '150.6149', '150.61'],
    ['huge value stays plain', '123456789012345678901234567890.129', '123456789012345678901234567890.13'],
    ['huge exponent stays plain', '1e25', '10000000000000000000000000.00'],
    // negatives use the magnitude's rule and keep the sign
    ['negative tiny', '-1e-7', '-0.000000100000'],
    ['negative under 10 rounds away from zero', '-9.9999999', '-10.000000'],
    ['negative from 100', -100.994, '-100.99'],
    ['number input', 0.000123456, '0.00012'],
    ['Decimal input', new Decimal('42.123456'), '42.1235'],
  ])('%s', (_case, input, expected) => {
    expect(formatPrice(input)).toBe(expected)
  })
})

describe('changePercent', () => {
  it.each<[string, unknown, unknown, string]>([
    ['rise', 110, 100, '10.00'],
    ['fall', 90, 100, '-10.00'],
    ['unchanged', 100, 100, '0.00'],
    ['numeric strings', '0.5', '0.25', '100.00'],
    ['rounds half up', '101.005', '100', '1.01'],
    ['rounds half away from zero when falling', '98.995', '100', '-1.01'],
    ['rounds to 2 decimals', 4, 3, '33.33'],
    ['tiny rise floors to 0.01', '100.001', '100', '0.01'],
    ['tiny fall floors to -0.01', '99.999', '100', '-0.01'],
    ['rise exactly at the floor', '100.01', '100', '0.01'],
    ['zero close', 0, 100, '0.00'],
    ['zero open', 100, 0, '0.00'],
    ['negative close', -5, 100, '0.00'],
    ['negative open', 5, -100, '0.00'],
    ['empty close', '', 100, '0.00'],
    ['empty open', 100, undefined, '0.00'],
    ['garbage', 'abc', 'def', '0.00'],
  ])('%s', (_case, close, open, expected) => {
    expect(changePercent(close, open)).toBe(expected)
  })
})

describe('formatPercent', () => {
  it.each<[string, unknown, string]>([
    ['empty', undefined, '0.00'],
    ['garbage', 'abc', '0.00'],
    ['exact zero', 0, '0.00'],
    ['positive', 12.345, '12.35'],
    ['negative', '-12.344', '-12.34'],
    ['keeps trailing zeros', 5, '5.00'],
    ['tiny positive floors', '0.0001', '0.01'],
    ['tiny negative floors', '-0.004', '-0.01'],
    ['just under the floor', '0.0099999', '0.01'],
    ['at the floor', '0.01', '0.01'],
    ['just over the floor rounds', '0.014', '0.01'],
    ['huge', '1e21', '1000000000000000000000.00'],
  ])('%s', (_case, input, expected) => {
    expect(formatPercent(input)).toBe(expected)
  })
})

describe('thresholds', () => {
  it('match the specified price thresholds and small-change floor', () => {
    expect(Object.values(PRICE_THRESHOLDS)).toEqual(['0.00001', '0.0001', '0.001', '10', '100'])
    expect(SMALL_CHANGE_FLOOR).toBe('0.01')
  })

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(PRICE_THRESHOLDS)).toBe(true)
    expect(() => {
      ;(PRICE_THRESHOLDS as { sixDecimalsBelow: string }).sixDecimalsBelow = '1'
    }).toThrow(TypeError)
  })
})
