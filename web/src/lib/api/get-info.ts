import { useCall } from '../swr'

export function useAccountInfo() {
  return useCall('getInfo')
}
