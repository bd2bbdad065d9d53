import { callApi } from '../../../lib/http'

export function sendBindPhoneCode(phone: string) {
  return callApi('sendMobileCode', { query: { codeType: 'bind', phone } })
}

export function bindPhone(phone: string, code: string) {
  return callApi('bindPhone', { query: { phone, code } })
}
