import { useCall } from '../../../lib/swr'

export function useProxyRecords() {
  return useCall('proxyRecords', { query: { pageNum: '1', pageSize: '50' } })
}
