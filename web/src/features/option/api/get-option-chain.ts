import { useCall } from '../../../lib/swr'
import { noteExchangeTime } from '../lib/exchange-clock'

/** How often the chain is read again: strikes follow the spot and expiries roll. */
const CHAIN_REFRESH_MS = 30_000

/** The expiries and strikes of one option coin, with the volatility and rate its premiums use. */
export function useOptionChain(coin: string | null) {
  return useCall('optionChain', coin ? { query: { coin } } : null, {
    swr: { refreshInterval: CHAIN_REFRESH_MS, onSuccess: (chain) => noteExchangeTime(chain.now) },
  })
}
