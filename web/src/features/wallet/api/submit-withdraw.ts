import type { CallQuery } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function submitWithdraw(query: CallQuery<'withdrawSubmit'>) {
  return callApi('withdrawSubmit', { query })
}
