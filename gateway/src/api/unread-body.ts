import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyReply, FastifyRequest } from 'fastify'

// An upload answered before its body has all arrived (refused at any point of it, or answered early by
// the upstream) must still reach its sender whole. Closing the connection while the sender is writing
// resets it: the sender meets EPIPE or ECONNRESET instead of the answer, and nginx in front answers 502.
// Node itself closes it so: after an answer that ends its connection it calls socket.destroySoon(),
// which destroys the socket once the answer is written, the body still coming. So the rest of the body
// is read and dropped, within a bound, and only then is the connection closed.

export interface DrainLimits {
  /** a sender silent this long is cut */
  idleMs: number
  /** and any still sending this long after the answer */
  maxMs: number
}

/**
 * Takes over the body of a request answered before it has all arrived: whatever read it stops, and the
 * rest is read and dropped, never more than the route's body limit. A body declared within that limit
 * keeps its connection once it has all come; any other ends it (`Connection: close`) once the body has
 * ended, the sender has ended its side or the bound is reached. A sender that falls silent for
 * `limits.idleMs` is cut, and one still sending after `limits.maxMs`: a slow but steady sender
 * of a body within the bound is read to its end, however long after the answer it started.
 */
export function dropUnreadBody(request: FastifyRequest, reply: FastifyReply, limits: DrainLimits): void {
  const body = request.raw
  if (body.complete || dropping.has(body)) return
  dropping.add(body)
  request.uploadForm?.abandon()
  const bound = request.routeOptions.bodyLimit
  const declared = Number(request.headers['content-length'])
  if (!Number.isInteger(declared) || declared > bound) reply.header('connection', 'close')
  const socket = body.socket
  // a connection that ends with this answer, for whatever reason, lingers until the body is dropped
  lingerBeforeClosing(socket, body)
  const readBefore = socket.bytesRead
  const cut = () => body.destroy()
  const idle = setTimeout(cut, limits.idleMs).unref()
  const most = setTimeout(cut, limits.maxMs).unref()
  body.on('data', () => {
    // counted on the wire, so neither chunk framing nor a declared length can stretch the bound
    if (socket.bytesRead - readBefore > bound) cut()
    else idle.refresh()
  })
  body.resume()
  const done = () => {
    clearTimeout(idle)
    clearTimeout(most)
  }
  body.once('end', done)
  body.once('close', done)
}

/** Bodies being dropped: each is taken over once, whichever answer comes first. */
const dropping = new WeakSet<IncomingMessage>()

/**
 * Node's close of a connection that ends with its answer, made to wait for the request's body: the
 * answer is written and the gateway's side ended (the sender reads the answer, then the end), and the
 * socket is destroyed only once the body has ended, or by the cut; a sender that ends its side first
 * closes it then (a lingering close, RFC 9112 section 9.6).
 */
function lingerBeforeClosing(socket: Socket, body: IncomingMessage): void {
  let closing = false
  let ended = false
  const destroySoon = socket.destroySoon
  const closeNow = () => destroySoon.call(socket)
  socket.destroySoon = () => {
    closing = true
    if (ended) closeNow()
    else socket.end()
  }
  body.once('end', () => {
    ended = true
    if (closing) closeNow()
  })
}
