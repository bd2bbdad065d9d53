import { toDecimal } from '@tradegate/shared'

// Take-profit and stop-loss typed with a contract order: the rule each must keep is checked as it is
// typed, against the price the order opens at, so the form says it before anything is sent.

export type TriggerBy = 'last' | 'mark'

/** Which side of the opening price a price must be on, for its message. */
export type ExitRule = 'above' | 'below'

export interface ExitProblems {
  takeProfit: ExitRule | null
  stopLoss: ExitRule | null
}

function positive(text: string): boolean {
  return text !== '' && toDecimal(text).greaterThan(0)
}

/**
 * A long takes profit above the price it opens at and stops its loss below; a short the other way
 * round. An empty field is no exit and breaks no rule; nor does anything before the price is known.
 */
export function exitProblems(
  direction: 'long' | 'short',
  openingPrice: string,
  takeProfit: string,
  stopLoss: string,
): ExitProblems {
  if (!positive(openingPrice)) return { takeProfit: null, stopLoss: null }
  const price = toDecimal(openingPrice)
  const long = direction === 'long'
  const takeOk = !positive(takeProfit) || (long ? price.lessThan(takeProfit) : price.greaterThan(takeProfit))
  const stopOk = !positive(stopLoss) || (long ? price.greaterThan(stopLoss) : price.lessThan(stopLoss))
  return {
    takeProfit: takeOk ? null : long ? 'above' : 'below',
    stopLoss: stopOk ? null : long ? 'below' : 'above',
  }
}
