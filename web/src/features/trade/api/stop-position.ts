import { callApi } from '../../../lib/http'

/** Closes a position at the market price. */
export function stopPosition(id: number) {
  return callApi('positionStop', { query: { id: String(id) } })
}
