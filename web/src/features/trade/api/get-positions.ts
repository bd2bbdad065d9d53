import { LIMITS } from '@tradegate/shared'
import { useAllPages, useCall } from '../../../lib/swr'

export function useOpenPositions() {
  return useAllPages('positionList', { status: 'open' }, LIMITS.positionListPageSize)
}

/** Closed and liquidated positions, each closed part on its own row. */
export function usePositionHistory() {
  return useCall('positionList', {
    query: { status: 'history', pageNum: '1', pageSize: String(LIMITS.positionListPageSize) },
  })
}
