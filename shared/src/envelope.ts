// The answer envelope and path rules of the call table, kept free of schemas so a client can use them
// without loading the schema library.

export const TOKEN_HEADER = 'satoken'
/**
 * What a session token may look like: the characters of UUIDs, hex, base64 and JWTs, 8 to 512 of them.
 * A token outside it (raw UTF-8, percent-escapes, spaces, control characters) is refused before any
 * upstream call, whether it comes in a REST header or a socket's auth frame.
 */
const TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{8,512}$/

/** The one token format rule, for the REST header and the socket's auth frame alike. */
export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value)
}
/** Code and message a missing or expired session answers with; clients sign out when they see them. */
export const TOKEN_EXPIRED_CODE = '500'
export const TOKEN_EXPIRED_MESSAGE = 'Token expired, please sign in again'
/** Code of a refused business request (bad input, not enough balance); any code above 0 means success. */
export const FAILURE_CODE = -1

type CodeAndMessage = { code: number | string; msg?: string }

export function isTokenExpired(envelope: CodeAndMessage): boolean {
  return String(envelope.code) === TOKEN_EXPIRED_CODE && (envelope.msg ?? '').includes('Token')
}

export function isSuccess(envelope: CodeAndMessage): boolean {
  return !isTokenExpired(envelope) && Number(envelope.code) > 0
}

/** Settings, watchlist and user-info loads, and the cache, accept only code 200, as number or text. */
export function isCode200(envelope: CodeAndMessage): boolean {
  return Number(envelope.code) === 200
}

/** Fills the `:name` segments of a call's path; values are encoded so a parameter can never add a segment. */
export function fillPath(
  path: string,
  params: Record<string, string | number> | undefined,
  name: string,
): string {
  return path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params?.[key]
    if (value === undefined) throw new Error(`missing path parameter ${key} for ${name}`)
    return encodeURIComponent(String(value))
  })
}
