import { callApi } from '../../../lib/http'

export function stopFollow(id: number) {
  return callApi('followStop', { query: { id: String(id) } })
}
