import { callApi } from '../../../lib/http'

/** Cancels an open spot order; what it held frozen is back in the balance. */
export function cancelSpotOrder(id: number) {
  return callApi('spotOrderCancel', { query: { id: String(id) } })
}
