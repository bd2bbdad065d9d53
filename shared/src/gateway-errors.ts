// Message keys of the errors the gateway makes itself; the client maps each key to a translated text.
export const GATEWAY_MESSAGES = [
  'badRequest',
  'cannotInputChinese',
  'invalidAmount',
  // a call the upstream checks an e-mail or phone code on came without it (see verificationCode)
  'codeRequired',
  'signInRequired',
  'forbidden',
  'notFound',
  'payloadTooLarge',
  'unsupportedMediaType',
  'tooManyRequests',
  'internalError',
  'upstreamUnavailable',
  'serviceUnavailable',
  'upstreamTimeout',
] as const

export type GatewayMessage = (typeof GATEWAY_MESSAGES)[number]

/** The status of `signInRequired`: a call that needs a session came without a usable one. */
export const SIGN_IN_REQUIRED_STATUS = 401

/** Body of a gateway-made error; `code` repeats the HTTP status, `detail` may name the first bad field. */
export interface GatewayErrorBody {
  code: number
  msg: GatewayMessage
  detail?: string
}

export function isGatewayErrorBody(value: unknown): value is GatewayErrorBody {
  if (typeof value !== 'object' || value === null) return false
  const { code, msg } = value as Record<string, unknown>
  return typeof code === 'number' && (GATEWAY_MESSAGES as readonly unknown[]).includes(msg)
}
