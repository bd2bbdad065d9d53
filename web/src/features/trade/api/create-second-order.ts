import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function createSecondOrder(body: CallBody<'secondOrderCreate'>) {
  return callApi('secondOrderCreate', { body })
}
