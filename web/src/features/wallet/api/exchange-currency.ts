import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function exchangeCurrency(body: CallBody<'currencyExchange'>) {
  return callApi('currencyExchange', { body })
}
