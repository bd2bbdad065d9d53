import { useCall } from '../../../lib/swr'

export function useMyFollows() {
  return useCall('followMine')
}
