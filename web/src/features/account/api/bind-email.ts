import { callApi } from '../../../lib/http'

export function sendBindEmailCode(email: string) {
  return callApi('sendEmailCode', { query: { codeType: 'bind', email } })
}

export function bindEmail(email: string, emailCode: string) {
  return callApi('bindEmail', { query: { email, emailCode } })
}
