import { useCall } from '../swr'

/** Second-contract periods, of one symbol or (without one) of every symbol. */
export function usePeriods(symbol?: string) {
  return useCall('periodList', { body: symbol ? { symbol } : {} })
}
