import { LIMITS } from '@tradegate/shared'
import { useCall } from '../../../lib/swr'

export function useExchangePairs() {
  return useCall('exchangeList', { query: { pageNum: '1', pageSize: String(LIMITS.exchangeListPageSize) } })
}
