import { callApi } from '../../../lib/http'

export function setFundPassword(pwd: string, code?: string) {
  return callApi('tardPwdSet', { query: { pwd, ...(code ? { code } : {}) } })
}

export function changeFundPassword(oldPwd: string, newPwd: string, code?: string) {
  return callApi('updatePwd', { query: { oldPwd, newPwd, signType: 'fund', ...(code ? { code } : {}) } })
}
