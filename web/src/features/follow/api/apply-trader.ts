import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function applyAsTrader(body: CallBody<'traderApply'>) {
  return callApi('traderApply', { body })
}
