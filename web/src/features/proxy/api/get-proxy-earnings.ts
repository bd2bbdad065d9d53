import { useCall } from '../../../lib/swr'

export function useProxyEarnings() {
  return useCall('proxyEarnings', { query: { pageNum: '1', pageSize: '50' } })
}
