import { isSuccess, isTokenExpired, type CallName } from '@tradegate/shared'

// Which answers end the session that asked for them. `revoked`: the user ended it (sign-out, a new
// login password); `expired`: the upstream says it is over.

export type SessionEnd = 'revoked' | 'expired'

/** An envelope this short is read whole; a token-expired answer is far shorter. */
const MAX_ENVELOPE_BYTES = 1024
const EXPIRED_MARK = Buffer.from('Token')

function changesLoginPassword(name: CallName, query: unknown): boolean {
  if (name === 'updateUserLoginPwd') return true
  return name === 'updatePwd' && (query as { signType?: unknown } | null)?.signType === 'login'
}

function envelopeOf(body: Buffer): { code: number | string; msg?: string } | null {
  if (body.length > MAX_ENVELOPE_BYTES) return null
  try {
    const parsed = JSON.parse(body.toString()) as { code?: unknown; msg?: unknown } | null
    const code = parsed?.code
    if (typeof code !== 'number' && typeof code !== 'string') return null
    return { code, msg: typeof parsed?.msg === 'string' ? parsed.msg : '' }
  } catch {
    return null
  }
}

/** How the upstream's answer to a call made with a session ends that session, if it does. */
export function sessionEndOf(name: CallName, query: unknown, body: Buffer): SessionEnd | null {
  const password = changesLoginPassword(name, query)
  // only answers that may be the token-expired one are parsed
  if (name !== 'loginOut' && !password && !(body.length <= MAX_ENVELOPE_BYTES && body.includes(EXPIRED_MARK)))
    return null
  const envelope = envelopeOf(body)
  if (envelope && isTokenExpired(envelope)) return 'expired'
  if (name === 'loginOut') return 'revoked'
  return password && envelope && isSuccess(envelope) ? 'revoked' : null
}
