import { useCall } from '../../../lib/swr'

/** Contract orders still waiting for their limit price. */
export function useOpenContractOrders() {
  return useCall('contractOrderList', { query: { status: 'open' } })
}
