import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function submitContractOrder(body: CallBody<'contractOrderSubmit'>, options?: CallOptions) {
  return callApi('contractOrderSubmit', { body }, options)
}
