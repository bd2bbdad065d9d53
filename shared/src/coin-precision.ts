import { Decimal } from 'decimal.js'
import { toDecimal } from './format'
import type { CoinList } from './schemas'

// A coin's precision, read from the coin list: the decimal places its amounts are counted in. The client
// shows, fills Max, quotes fees and refuses typed digits by it; the gateway refuses finer amounts.

/**
 * Places for a coin the coin list does not name (one satoshi of a bitcoin-like coin), on both sides:
 * the client shows and takes typed digits by it, the gateway refuses finer amounts.
 */
export const DEFAULT_COIN_PRECISION = 8

/** Fewest decimals an amount is shown with, so 2500 USDT reads 2,500.00 and not 2,500. */
const MIN_SHOWN_DECIMALS = 2

export type CoinPrecisions = ReadonlyMap<string, number>

/**
 * Every coin the spot and contract pairs name, with its places: a traded coin by its quantity precision,
 * the quote coin by its pairs' price precision. A coin named by several pairs keeps its finest precision,
 * so no amount valid on one pair is refused on another.
 */
export function coinPrecisions(list: Pick<CoinList, 'currencyList' | 'contractList'>): CoinPrecisions {
  const places = new Map<string, number>()
  const note = (coin: string, value: number) => {
    const key = coin.toLowerCase()
    places.set(key, Math.max(places.get(key) ?? 0, value))
  }
  for (const pair of list.currencyList) {
    note(pair.coin, pair.coinPrecision)
    note(pair.baseCoin, pair.basePrecision)
  }
  for (const pair of list.contractList) {
    note(pair.coin, pair.coinScale)
    note(pair.baseCoin, pair.baseScale)
  }
  return places
}

/** A coin's places: the one rule the client and the gateway both read a coin's precision by. */
export function precisionOf(precisions: CoinPrecisions, coin: string): number {
  return precisions.get(coin.toLowerCase()) ?? DEFAULT_COIN_PRECISION
}

/** An amount cut down (never up) to the coin's places: what can be shown, sent and settled. */
export function truncateToPrecision(value: unknown, places: number): Decimal {
  const truncated = toDecimal(value).toDecimalPlaces(places, Decimal.ROUND_DOWN)
  return truncated.isZero() ? truncated.abs() : truncated
}

/**
 * The text an amount is shown with: cut to the coin's places, then without the trailing zeros past
 * the second decimal, so 440.123456 USDT shows as 440.123456 whatever the precision and Max fills the
 * same digits the screen shows.
 */
export function precisionText(value: unknown, places: number): string {
  const truncated = truncateToPrecision(value, places)
  const shown = Math.min(places, Math.max(MIN_SHOWN_DECIMALS, truncated.decimalPlaces()))
  return truncated.toFixed(shown)
}

/** True when the typed amount has more decimals than the coin is counted in. */
export function exceedsPrecision(text: string, places: number): boolean {
  const fraction = text.split('.')[1] ?? ''
  return fraction.length > places
}

/**
 * An amount to its last digit: as precisionText when the coin's places hold it, else every digit it
 * has (without trailing zeros), so a figure finer than the coin is never cut where no one sees it.
 */
export function exactText(value: unknown, places: number): string {
  const whole = toDecimal(value)
  return whole.decimalPlaces() > places ? whole.toFixed() : precisionText(whole, places)
}
