import { LIMITS } from '@tradegate/shared'
import { useCall } from '../../../lib/swr'

export function useOpenPositions() {
  return useCall('positionList', {
    query: { status: 'open', pageNum: '1', pageSize: String(LIMITS.positionListPageSize) },
  })
}
