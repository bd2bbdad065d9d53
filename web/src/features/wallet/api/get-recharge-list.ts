import { useCall } from '../../../lib/swr'

export function useRechargeList() {
  return useCall('rechargeList', { query: { pageNum: '1', pageSize: '50' } })
}
