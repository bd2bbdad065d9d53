import type { CallBody } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

export function register(body: CallBody<'register'>) {
  return callApi('register', { body })
}
