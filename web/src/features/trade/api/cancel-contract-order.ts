import { callApi } from '../../../lib/http'

export function cancelContractOrder(id: number) {
  return callApi('contractOrderCancel', { query: { id: String(id) } })
}
