import { refuse } from '../api/refusal'
import { QUOTE_COIN } from '../markets/catalogue'
import type { Market } from '../markets/market'

/** The coin named in a money call, lower-cased, refused unless the sandbox lists it. */
export function knownCoin(market: Market, coin: string): string {
  const lower = coin.toLowerCase()
  if (lower !== QUOTE_COIN && !market.instrumentOfCoin(lower)) refuse('unknownCoin')
  return lower
}
