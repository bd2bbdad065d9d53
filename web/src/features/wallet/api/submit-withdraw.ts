import type { CallQuery } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function submitWithdraw(query: CallQuery<'withdrawSubmit'>, options?: CallOptions) {
  return callApi('withdrawSubmit', { query }, options)
}
