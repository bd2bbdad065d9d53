import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { containsChinese, type GatewayErrorBody } from '@tradegate/shared'
import { errorBody } from '../../lib/errors'
import { writeRawAnswer } from '../../lib/raw-answer'

// Requests Node's HTTP parser refuses before Fastify sees them get the same `{code,msg}` answer as every
// other refusal: raw Chinese in the URL is told so, a slow or oversized head gets its own status.

interface ClientError extends Error {
  code?: string
  /** the bytes the parser had received when it gave up (a Buffer) */
  rawPacket?: unknown
}

const LINE_END = 0x0a

/** The answer for a request Node's parser refused. */
export function clientErrorAnswer(error: ClientError): GatewayErrorBody {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return errorBody(408, 'badRequest', 'timeout')
  if (error.code === 'HPE_HEADER_OVERFLOW') return errorBody(431, 'badRequest', 'headers')
  if (error.code === 'HPE_INVALID_URL' && Buffer.isBuffer(error.rawPacket)) {
    const lineEnd = error.rawPacket.indexOf(LINE_END)
    const requestLine = error.rawPacket.subarray(0, lineEnd < 0 ? undefined : lineEnd).toString('utf8')
    if (containsChinese(requestLine)) return errorBody(400, 'cannotInputChinese', 'url')
    return errorBody(400, 'badRequest', 'url')
  }
  return errorBody(400, 'badRequest')
}

/**
 * Fastify's `clientErrorHandler`: writes the answer on the raw socket, then closes it as Node would.
 * Unlike a refused upload's body (api/unread-body.ts), what follows a broken request cannot be read
 * and dropped until the sender is done: the parser has lost the framing that says where it ends. A
 * direct sender still writing may so meet a reset; the shipped nginx reads and checks a body's framing
 * before it forwards any of it, so behind it the gateway never sees one.
 */
export function answerClientError(this: FastifyInstance, error: ClientError, socket: Socket): void {
  // a reset connection has nobody left to answer
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const answer = clientErrorAnswer(error)
  if (answer.msg === 'cannotInputChinese') this.metrics.rejectedRequests.inc({ reason: 'chinese' })
  this.log.debug({ event: 'client_error', code: error.code, status: answer.code }, 'client error')
  writeRawAnswer(socket, answer)
  socket.destroy(error)
}

/** The methods the gateway serves, for the 405 a CONNECT gets. */
const SERVED_METHODS = 'GET, HEAD, POST'

/**
 * Node's `connect` listener: the gateway is no forward proxy, so a CONNECT is answered 405 with the
 * usual body rather than the bare close Node gives when nothing listens.
 */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy())
  writeRawAnswer(socket, errorBody(405, 'badRequest', 'method'), { allow: SERVED_METHODS })
}
