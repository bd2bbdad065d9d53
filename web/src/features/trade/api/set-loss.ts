import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function setLoss(body: CallBody<'lossSet'>) {
  return callApi('lossSet', { body })
}
