import type { Decimal } from 'decimal.js'
import { coinPrecisions, precisionOf } from '@tradegate/shared'
import { refuse } from '../api/refusal'
import { contractPairs, spotPairs } from '../markets/listings'
import type { SandboxState } from '../state'

// Each coin's places by the same rule the client and gateway read from the coin list this sandbox serves.

export type CoinPlaces = (coin: string) => number

export function coinPlacesOf(state: SandboxState): CoinPlaces {
  // pair precisions never change while the sandbox runs; the fees passed here play no part in them
  const precisions = coinPrecisions({
    currencyList: spotPairs(),
    contractList: contractPairs(state.market, state.settings.current.CONTRACT_FEES),
  })
  return (coin) => precisionOf(precisions, coin)
}

/** Refuses an amount with more decimals than its coin is counted in. */
export function requireCoinPlaces(amount: Decimal, places: number): void {
  if (amount.decimalPlaces() > places) refuse('coinPrecisionExceeded')
}
