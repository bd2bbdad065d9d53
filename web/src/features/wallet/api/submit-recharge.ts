import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function submitRecharge(body: CallBody<'rechargeSubmit'>) {
  return callApi('rechargeSubmit', { body })
}
