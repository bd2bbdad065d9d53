import { callApi, type CallOptions } from '../../../lib/http'

export function cancelLoss(id: number, options?: CallOptions) {
  return callApi('lossCancel', { query: { id: String(id) } }, options)
}
