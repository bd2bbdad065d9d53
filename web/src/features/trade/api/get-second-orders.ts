import { useCall } from '../../../lib/swr'

export function useSecondOrders() {
  return useCall('secondOrderList', { body: { pageNum: 1, pageSize: 20 } })
}
