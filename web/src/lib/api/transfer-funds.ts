import type { CallBody } from '@tradegate/shared'
import { callApi } from '../http'

export function transferFunds(body: CallBody<'transferFunds'>) {
  return callApi('transferFunds', { body })
}
