import { useCall } from '../../../lib/swr'

export function useCurrencyPrice(from: string, to: string) {
  return useCall('currencyPrice', from && to ? { query: { currency: `${from},${to}` } } : null)
}
