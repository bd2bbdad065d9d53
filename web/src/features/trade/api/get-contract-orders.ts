import { useCall } from '../../../lib/swr'

/** Contract orders still waiting for their limit price. */
export function useOpenContractOrders() {
  return useCall('contractOrderList', { query: { status: 'open' } })
}

/** Every contract order of the user, newest first: the history is the ones no longer open. */
export function useContractOrderHistory() {
  return useCall('contractOrderList', { query: {} })
}
