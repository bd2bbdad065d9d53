import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function buyOption(body: CallBody<'optionOrderSubmit'>) {
  return callApi('optionOrderSubmit', { body })
}
