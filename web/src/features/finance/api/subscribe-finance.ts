import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function subscribeFinance(body: CallBody<'financeSubscribe'>, options?: CallOptions) {
  return callApi('financeSubscribe', { body }, options)
}
