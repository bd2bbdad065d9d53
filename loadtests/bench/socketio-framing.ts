/**
 * Socket.IO 4's packets over a plain WebSocket (engine.io protocol 4), so the lean client can drive
 * a Socket.IO server as cheaply as it drives the others: no socket.io-client, no JSON parse per
 * frame. One engine.io packet is one WebSocket text frame:
 * - `0{…}` open (the server's handshake), `2` ping from the server, answered with `3` pong;
 * - `4` message, carrying a Socket.IO packet: `40` connect to the main namespace (the client's
 *   request, and the server's `40{"sid":…}` answer), `42[event,data]` an event, `41` disconnect,
 *   `44{…}` a refused connect.
 */

export const SOCKET_IO_CONNECT = '40'
export const SOCKET_IO_PONG = '3'
export const SOCKET_IO_EVENT_NAME = 'message'

/** The WebSocket path of a Socket.IO server at `baseUrl` (http or ws). */
export function socketIoWebSocketUrl(baseUrl: string): URL {
  const url = new URL(baseUrl.replace(/^http/, 'ws'))
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/socket.io/`
  url.search = '?EIO=4&transport=websocket'
  return url
}

/** An event packet as the client sends it, e.g. `42["message",{"operation":"subscribe",…}]`. */
export function socketIoEvent(data: unknown, event = SOCKET_IO_EVENT_NAME): string {
  return `42${JSON.stringify([event, data])}`
}

const EVENT_PREFIX = Buffer.from(`42["${SOCKET_IO_EVENT_NAME}",`)
/** Where the data object of a `42["message",…]` packet starts. */
export const SOCKET_IO_EVENT_OFFSET = EVENT_PREFIX.length

export type SocketIoPacket =
  | { kind: 'open' }
  | { kind: 'ping' }
  | { kind: 'connected' }
  | { kind: 'event'; offset: number }
  | { kind: 'closed' }
  | { kind: 'other' }

const CHAR_0 = 0x30

/** What one text frame from a Socket.IO server is, read from its first bytes only. */
export function readSocketIoPacket(payload: Buffer): SocketIoPacket {
  const engine = payload[0]
  if (engine === CHAR_0) return { kind: 'open' }
  if (engine === CHAR_0 + 1) return { kind: 'closed' }
  if (engine === CHAR_0 + 2) return { kind: 'ping' }
  if (engine !== CHAR_0 + 4) return { kind: 'other' }
  const packet = payload[1]
  if (packet === CHAR_0 + 2) {
    return payload.subarray(0, EVENT_PREFIX.length).equals(EVENT_PREFIX)
      ? { kind: 'event', offset: EVENT_PREFIX.length }
      : { kind: 'other' }
  }
  if (packet === CHAR_0) return { kind: 'connected' }
  if (packet === CHAR_0 + 1 || packet === CHAR_0 + 4) return { kind: 'closed' }
  return { kind: 'other' }
}
