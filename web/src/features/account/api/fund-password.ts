import { callApi } from '../../../lib/http'

export function setFundPassword(pwd: string) {
  return callApi('tardPwdSet', { query: { pwd } })
}

export function changeFundPassword(oldPwd: string, newPwd: string) {
  return callApi('updatePwd', { query: { oldPwd, newPwd, signType: 'fund' } })
}
