import { useCall } from '../../../lib/swr'

export function useNoticeList(key: string) {
  return useCall('noticeList', { query: { key } })
}
