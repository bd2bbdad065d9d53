import type { CallBody } from '@tradegate/shared'
import { useCall } from '../../../lib/swr'

export function usePayAddress(body: CallBody<'payAddress'> | null) {
  return useCall('payAddress', body ? { body } : null)
}
