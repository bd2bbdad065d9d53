import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function setLoss(body: CallBody<'lossSet'>, options?: CallOptions) {
  return callApi('lossSet', { body }, options)
}
