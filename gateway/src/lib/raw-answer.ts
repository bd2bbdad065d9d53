import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { GatewayErrorBody } from '@tradegate/shared'

/**
 * Writes a refusal straight onto a connection Fastify never got to answer (a request Node's parser
 * refused, a CONNECT, a malformed socket upgrade), with the `{code,msg}` body every other refusal has,
 * then closes it.
 */
export function writeRawAnswer(
  socket: Duplex,
  answer: GatewayErrorBody,
  headers: Record<string, string | number> = {},
): void {
  if (socket.writable) {
    const body = JSON.stringify(answer)
    const extra = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    socket.write(
      `HTTP/1.1 ${answer.code} ${STATUS_CODES[answer.code]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n${extra}Connection: close\r\n\r\n${body}`,
    )
  }
  // closed once the answer is out, whether or not the client ends its side
  socket.once('finish', () => socket.destroy())
  socket.end()
}
