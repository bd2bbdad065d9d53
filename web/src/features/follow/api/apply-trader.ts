import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function applyAsTrader(body: CallBody<'traderApply'>, options?: CallOptions) {
  return callApi('traderApply', { body }, options)
}
