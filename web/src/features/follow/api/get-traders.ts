import { useCall } from '../../../lib/swr'

export function useTraders() {
  return useCall('traderList', { query: { pageNum: '1', pageSize: '50' } })
}
