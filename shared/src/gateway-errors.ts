// Message keys of the errors the gateway makes itself; the client maps each key to a translated text.
export const GATEWAY_MESSAGES = [
  'badRequest',
  'cannotInputChinese',
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
