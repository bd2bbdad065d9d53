import type { CallQuery } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function resetPassword(query: CallQuery<'backPwd'>) {
  return callApi('backPwd', { query })
}
