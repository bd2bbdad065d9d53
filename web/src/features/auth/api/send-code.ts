import { callApi } from '../../../lib/http'

/** Sends a verification code by e-mail or text message, depending on where it should go. */
export function sendCode(target: { email: string } | { phone: string }, codeType: string) {
  return 'email' in target
    ? callApi('sendEmailCode', { query: { codeType, email: target.email } })
    : callApi('sendMobileCode', { query: { codeType, phone: target.phone } })
}
