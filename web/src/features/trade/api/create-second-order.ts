import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function createSecondOrder(body: CallBody<'secondOrderCreate'>, options?: CallOptions) {
  return callApi('secondOrderCreate', { body }, options)
}
