import { LIMITS } from '@tradegate/shared'
import { useAllPages } from '../../../lib/swr'

export function useOpenPositions() {
  return useAllPages('positionList', { status: 'open' }, LIMITS.positionListPageSize)
}
