import { useCall } from '../../../lib/swr'

export function useFinancialRecords() {
  return useCall('financialRecords', { query: { pageNum: '1', pageSize: '50' } })
}
