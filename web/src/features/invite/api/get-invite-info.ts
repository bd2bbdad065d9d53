import { useCall } from '../../../lib/swr'

export function useInviteInfo() {
  return useCall('inviteInfo')
}
