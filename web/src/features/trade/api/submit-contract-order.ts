import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function submitContractOrder(body: CallBody<'contractOrderSubmit'>) {
  return callApi('contractOrderSubmit', { body })
}
