import { useCall } from '../../../lib/swr'

export function usePayAddress(coin: string | null) {
  return useCall('payAddress', coin ? { body: { coin } } : null)
}
