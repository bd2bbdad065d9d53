import { isSuccess, isTokenExpired, type CallDefinition } from '@tradegate/shared'

// Which answers end the sessions of the user who asked for them: the upstream ends every session of
// a user at once. `revoked`: the user ended them (the calls the call table marks `endsSessions`: a
// sign-out, a new login or fund password); `expired`: the upstream says the token is over.

export type SessionEnd = 'revoked' | 'expired'

/** An envelope this short is read whole; a token-expired answer is far shorter. */
const MAX_ENVELOPE_BYTES = 1024
const EXPIRED_MARK = Buffer.from('Token')

/** Calls whose answer may end the caller's sessions: the gateway learns the caller's user before sending them. */
export function mayEndSessions(definition: CallDefinition): boolean {
  return definition.endsSessions !== undefined
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
export function sessionEndOf(definition: CallDefinition, body: Buffer): SessionEnd | null {
  const ends = definition.endsSessions
  // only answers that may be the token-expired one are parsed
  if (ends === undefined && !(body.length <= MAX_ENVELOPE_BYTES && body.includes(EXPIRED_MARK))) return null
  const envelope = envelopeOf(body)
  if (envelope && isTokenExpired(envelope)) return 'expired'
  if (ends === 'always') return 'revoked'
  return ends === 'onSuccess' && envelope && isSuccess(envelope) ? 'revoked' : null
}

/** How a USER_STATUS event the upstream pushes on its feed ends the user's sessions, if it does. */
export function sessionEndOfStatus(data: Record<string, unknown>): SessionEnd | null {
  if (data.status === 'logout') return 'revoked'
  return data.status === 'expired' ? 'expired' : null
}
