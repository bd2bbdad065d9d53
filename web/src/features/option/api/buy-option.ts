import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function buyOption(body: CallBody<'optionOrderSubmit'>, options?: CallOptions) {
  return callApi('optionOrderSubmit', { body }, options)
}
