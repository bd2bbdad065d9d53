import { useCall } from '../../../lib/swr'

/** Opening a message marks it read and answers with its content. */
export function useReadMessage(id: string | null) {
  return useCall('messageRead', id && /^\d+$/.test(id) ? { query: { id } } : null)
}
