import { useCall } from '../../../lib/swr'

export function useAccountInfo() {
  return useCall('getInfo')
}
