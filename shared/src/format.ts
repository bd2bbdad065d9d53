import { Decimal } from 'decimal.js'

// decimal.js rounds every arithmetic result to `precision` significant digits; 20 is too few for large balances.
const MoneyDecimal = Decimal.clone({ precision: 40 })

// Plain decimal notation only: decimal.js would also accept hex, binary, octal and Infinity.
const DECIMAL_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i

export const PRICE_THRESHOLDS = Object.freeze({
  sixSignificantDigitsBelow: '0.00001',
  fourSignificantDigitsBelow: '0.0001',
  twoSignificantDigitsBelow: '0.001',
  sixDecimalsBelow: '10',
  fourDecimalsBelow: '100',
} as const)

export const SMALL_CHANGE_FLOOR = '0.01'

const ZERO_DISPLAY = '0.00'
const PERCENT_DECIMALS = 2
const PRICE_DECIMALS_FROM_100 = 2

type PriceRule = { below: string; significantDigits: number } | { below: string; decimals: number }

const PRICE_RULES: readonly PriceRule[] = Object.freeze([
  { below: PRICE_THRESHOLDS.sixSignificantDigitsBelow, significantDigits: 6 },
  { below: PRICE_THRESHOLDS.fourSignificantDigitsBelow, significantDigits: 4 },
  { below: PRICE_THRESHOLDS.twoSignificantDigitsBelow, significantDigits: 2 },
  { below: PRICE_THRESHOLDS.sixDecimalsBelow, decimals: 6 },
  { below: PRICE_THRESHOLDS.fourDecimalsBelow, decimals: 4 },
])

/**
 * Each rule's threshold parsed once: a price shown runs through up to five of them, and comparing
 * with a string parses it again each time, on every render of every live price.
 */
const PRICE_RULE_LIMITS: readonly { rule: PriceRule; limit: Decimal }[] = PRICE_RULES.map((rule) => ({
  rule,
  limit: new MoneyDecimal(rule.below),
}))

/** Anything that is not a finite number in plain decimal notation counts as empty and becomes 0. */
export function toDecimal(value: unknown): Decimal {
  if (Decimal.isDecimal(value)) return finiteOrZero(new MoneyDecimal(value))
  if (typeof value === 'number') return Number.isFinite(value) ? new MoneyDecimal(value) : new MoneyDecimal(0)
  if (typeof value === 'bigint') return new MoneyDecimal(value.toString())
  if (typeof value === 'string') {
    const trimmed = value.trim()
    return DECIMAL_NUMBER.test(trimmed) ? finiteOrZero(new MoneyDecimal(trimmed)) : new MoneyDecimal(0)
  }
  return new MoneyDecimal(0)
}

function finiteOrZero(value: Decimal): Decimal {
  return value.isFinite() ? value : new MoneyDecimal(0)
}

export function add(left: unknown, right: unknown): Decimal {
  return toDecimal(left).plus(toDecimal(right))
}

export function sub(left: unknown, right: unknown): Decimal {
  return toDecimal(left).minus(toDecimal(right))
}

export function mul(left: unknown, right: unknown): Decimal {
  return toDecimal(left).times(toDecimal(right))
}

/** Division by zero (or by an empty divisor) gives 0 so a missing figure never shows as Infinity. */
export function div(dividend: unknown, divisor: unknown): Decimal {
  const denominator = toDecimal(divisor)
  if (denominator.isZero()) return new MoneyDecimal(0)
  return toDecimal(dividend).div(denominator)
}

export function formatPrice(value: unknown): string {
  const price = toDecimal(value)
  if (price.isZero()) return ZERO_DISPLAY
  const magnitude = price.abs()
  const sign = price.isNegative() ? '-' : ''
  // Rounded half away from zero, significant-digit cases included: the display rule (display.ts) rounds
  // every figure but a balance, so a price shown is the nearest one at its places.
  return sign + magnitude.toFixed(priceDecimals(magnitude), Decimal.ROUND_HALF_UP)
}

function priceDecimals(magnitude: Decimal): number {
  const rule = PRICE_RULE_LIMITS.find(({ limit }) => magnitude.lessThan(limit))?.rule
  if (rule === undefined) return PRICE_DECIMALS_FROM_100
  if ('decimals' in rule) return rule.decimals
  // `e` is the base-10 exponent of the leading digit, e.g. -7 for 1.5e-7.
  return rule.significantDigits - 1 - magnitude.e
}

/** Close/open change in percent, 0.00 unless both prices are positive. */
export function changePercent(close: unknown, open: unknown): string {
  const closePrice = toDecimal(close)
  const openPrice = toDecimal(open)
  if (!closePrice.greaterThan(0) || !openPrice.greaterThan(0)) return ZERO_DISPLAY
  // Multiplying before dividing keeps the result to a single rounding step.
  return formatPercent(closePrice.minus(openPrice).times(100).div(openPrice))
}

export function formatPercent(value: unknown): string {
  const percent = toDecimal(value)
  if (percent.isZero()) return ZERO_DISPLAY
  // A tiny real move must not read as "no change", so it is lifted to the floor with its sign.
  if (percent.abs().lessThan(SMALL_CHANGE_FLOOR))
    return (percent.isNegative() ? '-' : '') + SMALL_CHANGE_FLOOR
  // ROUND_HALF_UP rounds half away from zero; unlike prices, a percent may round either way.
  return percent.toFixed(PERCENT_DECIMALS, Decimal.ROUND_HALF_UP)
}
