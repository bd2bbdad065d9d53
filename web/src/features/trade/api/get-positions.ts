import { LIMITS, MAX_PAGE_SIZE } from '@tradegate/shared'
import { useAllPages, useCall } from '../../../lib/swr'

export function useOpenPositions() {
  return useAllPages('positionList', { status: 'open' }, LIMITS.positionListPageSize)
}

/** The newest closed and liquidated positions (one page, the largest the gateway serves), each closed part on its own row. */
export function usePositionHistory() {
  return useCall('positionList', {
    query: { status: 'history', pageNum: '1', pageSize: String(MAX_PAGE_SIZE) },
  })
}
