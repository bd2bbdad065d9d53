import { useCall } from '../../../lib/swr'

export function useHelpDetail(id: string | undefined) {
  return useCall('helpDetail', id && /^\d+$/.test(id) ? { query: { id } } : null)
}
