import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function submitSpotOrder(body: CallBody<'spotOrderSubmit'>) {
  return callApi('spotOrderSubmit', { body })
}
