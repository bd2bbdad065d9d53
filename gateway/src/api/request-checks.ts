import type { FastifyInstance, FastifyRequest } from 'fastify'
import { SIGN_IN_REQUIRED_STATUS, TOKEN_HEADER, isWellFormedToken } from '@tradegate/shared'
import { GatewayError } from '../lib/errors'
import { tokenKey } from '../upstream/user-resolver'
import type { CallRoute } from './call-route'
import { checkRawText, chineseDetail } from './guard'

// The checks a request passes before it is proxied, beyond its schema: the session header, the
// language headers and the Chinese rule on the raw text (an upload's parts: uploads.ts).

export const LANGUAGE_VALUE = /^[A-Za-z0-9_-]{1,35}$/

/**
 * A token outside the token alphabet is refused on every call, as the upstream would otherwise be
 * asked about it; an upload also needs one at all, as its body is only read for a session.
 */
export function checkSessionHeader(app: FastifyInstance, request: FastifyRequest, required: boolean): void {
  const token = request.headers[TOKEN_HEADER]
  // an empty header is no token at all, as some clients send for a signed-out user
  if ((token === undefined || token === '') && !required) return
  if (isWellFormedToken(token)) return
  app.metrics.rejectedRequests.inc({ reason: 'session' })
  throw new GatewayError(SIGN_IN_REQUIRED_STATUS, 'signInRequired', `headers.${TOKEN_HEADER}`)
}

/**
 * A call that needs a session is refused when the token's session ended (its user signed out or
 * changed a password anywhere, as this instance heard or Redis remembers): the upstream is not asked again.
 */
export async function checkSessionNotEnded(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const token = request.headers[TOKEN_HEADER]
  if (typeof token !== 'string' || token === '' || !(await app.sessions.isEnded(tokenKey(token)))) return
  app.metrics.rejectedRequests.inc({ reason: 'session' })
  throw new GatewayError(SIGN_IN_REQUIRED_STATUS, 'signInRequired', `headers.${TOKEN_HEADER}`)
}

/** Language headers pick the cached answer's language, so they are checked before use and form part of the key. */
export function checkedLanguageHeaders(request: FastifyRequest): string {
  const { language, lang } = request.headers
  for (const [name, value] of [
    ['language', language],
    ['lang', lang],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || !LANGUAGE_VALUE.test(value))) {
      throw new GatewayError(400, 'badRequest', `headers.${name}`)
    }
  }
  return `${language ?? ''}|${lang ?? ''}`
}

/** The Chinese rule on the raw path, query and body, as they arrived; throws a GatewayError on the first failure. */
export function checkChineseRule(
  app: FastifyInstance,
  route: CallRoute,
  request: FastifyRequest,
  queryMaxParams: number,
): void {
  const countChinese = () => app.metrics.rejectedRequests.inc({ reason: 'chinese' })
  const url = request.url
  const queryStart = url.indexOf('?')
  if (route.definition.params)
    checkRawText(queryStart < 0 ? url : url.slice(0, queryStart), 'params', countChinese)
  // without a query string the parsed query is empty and has nothing to check
  if (queryStart >= 0) {
    checkRawText(url.slice(queryStart + 1), 'query', countChinese)
    if (Object.keys(request.query as object).length > queryMaxParams)
      throw new GatewayError(400, 'badRequest', 'query')
  }
  const raw = request.rawBody
  if (raw === null) return
  try {
    checkRawText(raw, 'body', countChinese)
  } catch (error) {
    // the refused value's path, worked out only now that the request is refused anyway
    if (error instanceof GatewayError && error.messageKey === 'cannotInputChinese')
      throw new GatewayError(400, 'cannotInputChinese', chineseDetail(request.body, 'body'))
    throw error
  }
}
