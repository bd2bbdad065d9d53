import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function login(body: CallBody<'login'>) {
  return callApi('login', { body })
}
