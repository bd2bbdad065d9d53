import { useCall } from '../../../lib/swr'

/** Notices shown on the home screen. */
export const HOME_NOTICE_KEY = 'home'

export function useNotices(key: string = HOME_NOTICE_KEY) {
  return useCall('noticeList', { query: { key } }, { quiet: true })
}
