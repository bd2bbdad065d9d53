import { callApi } from '../../../lib/http'

export function cancelLoss(id: number) {
  return callApi('lossCancel', { query: { id: String(id) } })
}
