/**
 * Socket.IO 4 over a plain WebSocket (engine.io protocol 4), as the native generator speaks it to
 * a Socket.IO server: the transport's URL, and the subscribe events it sends. Reading the server's
 * packets (`0{…}` open, `2` ping answered with `3`, `40` connected, `42[…]` events) is native-gen.c's.
 */

/** The WebSocket path of a Socket.IO server at `baseUrl` (http or ws). */
export function socketIoWebSocketUrl(baseUrl: string): URL {
  const url = new URL(baseUrl.replace(/^http/, 'ws'))
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/socket.io/`
  url.search = '?EIO=4&transport=websocket'
  return url
}

/** A "message" event as the client sends it, e.g. `42["message",{"operation":"subscribe",…}]`. */
export function socketIoEvent(data: unknown): string {
  return `42${JSON.stringify(['message', data])}`
}
