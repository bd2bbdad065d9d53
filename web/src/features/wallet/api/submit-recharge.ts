import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function submitRecharge(body: CallBody<'rechargeSubmit'>, options?: CallOptions) {
  return callApi('rechargeSubmit', { body }, options)
}
