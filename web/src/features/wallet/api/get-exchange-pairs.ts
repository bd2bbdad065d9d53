import { LIMITS } from '@tradegate/shared'
import { useAllPages } from '../../../lib/swr'

export function useExchangePairs() {
  return useAllPages('exchangeList', {}, LIMITS.exchangeListPageSize)
}
