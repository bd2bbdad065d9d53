// The one money rule: what an amount sent to the exchange may look like. Pure and free of the schema
// library, so the gateway judges requests with it and the client can judge a form with the same words.

/** No coin is counted in finer steps than this; a coin's own precision may be smaller. */
export const MAX_AMOUNT_DECIMALS = 18
/** Digits before the point; far above any balance, low enough that no amount is a wall of digits. */
export const MAX_AMOUNT_WHOLE_DIGITS = 20

/** The text form of an amount as a pattern, for schemas and forms; `checkAmount` adds precision and zero. */
export const MONEY_TEXT_PATTERN = `^[0-9]{1,${MAX_AMOUNT_WHOLE_DIGITS}}(\\.[0-9]{1,${MAX_AMOUNT_DECIMALS}})?$`

export interface AmountRule {
  /** decimal places allowed, the coin's precision where it is known; never more than 18 */
  maxDecimals?: number
  /** true where zero means something (a stop price of 0 is "none"); false for amounts that move money */
  allowZero?: boolean
}

/**
 * What an amount is counted in, so the gateway judges its digits by that coin's or pair's places:
 * - `field` + `kind`: a sibling field names the coin (`coin`) or the pair (`spotQuantity`, `spotPrice`,
 *   `contractPrice`);
 * - `coin`: always this coin (a margin in USDT);
 * - `product` + `field`: the coin of the product (of that list of products) the sibling field names;
 * - `places`: a fixed count (whole contract shares: 0).
 * Every amount field names one: there is no default, so an amount without a scale does not type-check.
 */
export type AmountScale =
  | { field: string; kind: 'coin' | 'spotQuantity' | 'spotPrice' | 'contractPrice' }
  | { coin: string }
  | { product: ProductLine; field: string }
  | { places: number }

/** The two product lists an amount may be counted in the coin of: savings and proxy investing. */
export type ProductLine = 'finance' | 'proxy'

/** What the call table marks an amount field with: its rule, and what its places are judged by. */
export interface AmountMarker {
  allowZero?: boolean
  scale: AmountScale
}

/** The sibling field a scale reads the coin, pair or product from; none for a fixed coin or count. */
export function scaleField(scale: AmountScale): string | null {
  return 'field' in scale ? scale.field : null
}

/**
 * Why an amount is refused: `notADecimal` for anything but digits with at most one point (signs,
 * exponents, spaces, empty text), `tooManyDigits` past 20 whole digits, `tooManyDecimals` past the
 * allowed places as written (trailing zeros count), `zero` where zero is refused.
 */
export type AmountError = 'notADecimal' | 'tooManyDigits' | 'tooManyDecimals' | 'zero'

const DECIMAL_TEXT = /^([0-9]+)(?:\.([0-9]+))?$/
const ZERO_TEXT = /^[0.]+$/

/**
 * Judges an amount by its written text, never by a float: `"0.1234567890123456789"` has 19 places
 * whatever a number of it would round to. For a JSON number pass its text as written in the body.
 * Returns null for an amount the rule takes.
 */
export function checkAmount(text: string, rule: AmountRule = {}): AmountError | null {
  const match = DECIMAL_TEXT.exec(text)
  if (!match) return 'notADecimal'
  const whole = match[1]!
  const fraction = match[2] ?? ''
  if (whole.length > MAX_AMOUNT_WHOLE_DIGITS) return 'tooManyDigits'
  const maxDecimals = Math.min(rule.maxDecimals ?? MAX_AMOUNT_DECIMALS, MAX_AMOUNT_DECIMALS)
  if (fraction.length > maxDecimals) return 'tooManyDecimals'
  if (!rule.allowZero && ZERO_TEXT.test(text)) return 'zero'
  return null
}

/** The schema keyword that marks a field as an amount judged by `checkAmount`; its value is the field's rule. */
export const AMOUNT_KEYWORD = 'x-amount'
