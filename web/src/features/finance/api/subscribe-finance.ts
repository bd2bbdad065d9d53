import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function subscribeFinance(body: CallBody<'financeSubscribe'>) {
  return callApi('financeSubscribe', { body })
}
