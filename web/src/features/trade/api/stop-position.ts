import { callApi, type CallOptions } from '../../../lib/http'

/**
 * Closes a position: all of it at market by default; `shares` closes only that many, and `price`
 * rests the close at that limit instead.
 */
export function stopPosition(
  id: number,
  part: { shares?: string; price?: string } = {},
  options?: CallOptions,
) {
  return callApi('positionStop', { query: { id: String(id), ...part } }, options)
}
