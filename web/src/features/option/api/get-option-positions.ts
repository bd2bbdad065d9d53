import { useCall } from '../../../lib/swr'

/** The user's option positions, open or settled, newest first. */
export function useOptionPositions(status: 'open' | 'settled') {
  return useCall('optionPositions', { query: { status, pageSize: '50' } })
}
