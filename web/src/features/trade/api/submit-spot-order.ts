import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function submitSpotOrder(body: CallBody<'spotOrderSubmit'>, options?: CallOptions) {
  return callApi('spotOrderSubmit', { body }, options)
}
