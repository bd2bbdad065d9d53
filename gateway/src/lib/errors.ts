import type { GatewayErrorBody, GatewayMessage } from '@tradegate/shared'

/** An error the gateway answers itself, with the real HTTP status and a message key for the client. */
export class GatewayError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messageKey: GatewayMessage,
    readonly detail?: string,
    /** seconds the client is told to wait (Retry-After), for a refusal that passes by itself */
    readonly retryAfterSeconds?: number,
  ) {
    super(messageKey)
  }

  body(): GatewayErrorBody {
    return errorBody(this.statusCode, this.messageKey, this.detail)
  }
}

export function errorBody(status: number, msg: GatewayMessage, detail?: string): GatewayErrorBody {
  return detail === undefined ? { code: status, msg } : { code: status, msg, detail }
}
