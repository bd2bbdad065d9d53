import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function subscribeProxy(body: CallBody<'proxySubscribe'>) {
  return callApi('proxySubscribe', { body })
}
