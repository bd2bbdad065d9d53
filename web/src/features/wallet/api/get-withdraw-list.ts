import { useCall } from '../../../lib/swr'

export function useWithdrawList() {
  return useCall('withdrawList', { query: { pageNum: '1', pageSize: '50' } })
}
