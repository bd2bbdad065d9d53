// Whole numbers in a JSON body (ids, page numbers, leverage) judged by their written text, as amounts
// are: a float has lost the digits past 2^53 and takes `1e2` or `100.0000000000000001` for 100, while
// the upstream reads the bytes the client wrote.

/** The upstream's ids are 64-bit signed: the largest whole number any field may hold. */
export const MAX_WHOLE_NUMBER = 9223372036854775807n
const MAX_WHOLE_DIGITS = MAX_WHOLE_NUMBER.toString().length
const WHOLE_TEXT = /^-?(?:0|[1-9][0-9]*)$/

export interface WholeBounds {
  minimum?: number
  maximum?: number
}

/**
 * True when `text` is a whole number written plainly (no exponent, point, plus sign or leading zero)
 * within the bounds. Looks at no more than the first 21 characters of a longer text, so a wall of
 * digits costs no more than a short one.
 */
export function isWholeText(text: string, bounds: WholeBounds = {}): boolean {
  // one more than the longest allowed: a sign
  if (text.length > MAX_WHOLE_DIGITS + 1 || !WHOLE_TEXT.test(text)) return false
  const value = BigInt(text)
  const maximum = bounds.maximum === undefined ? MAX_WHOLE_NUMBER : BigInt(bounds.maximum)
  const minimum = bounds.minimum === undefined ? -MAX_WHOLE_NUMBER - 1n : BigInt(bounds.minimum)
  return value >= minimum && value <= maximum
}
