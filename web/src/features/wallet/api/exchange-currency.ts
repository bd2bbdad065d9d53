import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function exchangeCurrency(body: CallBody<'currencyExchange'>, options?: CallOptions) {
  return callApi('currencyExchange', { body }, options)
}
