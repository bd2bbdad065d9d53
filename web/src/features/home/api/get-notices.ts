import { useCall } from '../../../lib/swr'

/** The rolling notices shown on the home screen. */
const HOME_NOTICE_KEY = 'ROLL_NOTICE'

export function useNotices(key: string = HOME_NOTICE_KEY) {
  return useCall('noticeList', { query: { key } }, { quiet: true })
}
