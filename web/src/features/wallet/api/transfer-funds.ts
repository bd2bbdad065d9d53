import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function transferFunds(body: CallBody<'transferFunds'>) {
  return callApi('transferFunds', { body })
}
