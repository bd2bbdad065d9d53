import type { CallOptions } from '../http'
import { useCall } from '../swr'

/** The list of rolling notices the home screen shows, and the one a notice link falls back to. */
export const ROLL_NOTICE = 'ROLL_NOTICE'

/** The notices filed under `key`; one cache entry per key, whichever screen reads it. */
export function useNotices(key: string, options: Pick<CallOptions, 'quiet'> = {}) {
  return useCall('noticeList', { query: { key } }, options)
}
