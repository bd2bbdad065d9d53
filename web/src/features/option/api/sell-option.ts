import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function sellOption(body: CallBody<'optionOrderSell'>, options?: CallOptions) {
  return callApi('optionOrderSell', { body }, options)
}
