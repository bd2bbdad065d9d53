import { callApi } from '../../../lib/http'

export function claimWelfare(id: number) {
  return callApi('welfareClaim', { query: { id: String(id) } })
}
