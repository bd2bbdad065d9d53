import { callApi } from '../../../lib/http'

export function changeLoginPassword(oldPwd: string, newPwd: string) {
  return callApi('updateUserLoginPwd', { query: { oldPwd, newPwd } })
}
