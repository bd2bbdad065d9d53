import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function amendContractOrder(body: CallBody<'contractOrderAmend'>, options?: CallOptions) {
  return callApi('contractOrderAmend', { body }, options)
}
