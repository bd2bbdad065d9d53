import { callApi } from '../../../lib/http'

/** A code for setting the fund password, sent to the bound e-mail or, without one, the bound phone. */
export function sendFundPasswordCode(target: { email?: string; phone?: string }) {
  if (target.email)
    return callApi('sendEmailCode', { query: { codeType: 'fundPassword', email: target.email } })
  return callApi('sendMobileCode', { query: { codeType: 'fundPassword', phone: target.phone ?? '' } })
}
