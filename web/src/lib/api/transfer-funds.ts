import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../http'

export function transferFunds(body: CallBody<'transferFunds'>, options?: CallOptions) {
  return callApi('transferFunds', { body }, options)
}
