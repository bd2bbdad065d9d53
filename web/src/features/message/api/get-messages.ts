import { useCall } from '../../../lib/swr'

export function useMessages() {
  return useCall('messageList', { query: { pageNum: '1', pageSize: '50' } })
}
