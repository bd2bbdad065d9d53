import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function startFollow(body: CallBody<'followStart'>) {
  return callApi('followStart', { body })
}
