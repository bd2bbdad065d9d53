import { useCall } from '../../../lib/swr'

export function useFinanceProducts() {
  return useCall('financeProducts')
}
