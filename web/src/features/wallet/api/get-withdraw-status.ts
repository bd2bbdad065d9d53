import { useCall } from '../../../lib/swr'

export function useWithdrawStatus() {
  return useCall('withdrawStatus')
}
