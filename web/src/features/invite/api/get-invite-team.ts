import { useCall } from '../../../lib/swr'

export function useInviteTeam() {
  return useCall('inviteTeam', { query: { pageNum: '1', pageSize: '50' } })
}
