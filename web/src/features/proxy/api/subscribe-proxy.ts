import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'

export function subscribeProxy(body: CallBody<'proxySubscribe'>, options?: CallOptions) {
  return callApi('proxySubscribe', { body }, options)
}
