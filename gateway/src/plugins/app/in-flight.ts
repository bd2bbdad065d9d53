import type { IncomingMessage } from 'node:http'
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorBody } from '../../lib/errors'

// The requests Fastify is answering now, so a shutdown can answer those still waiting (on a hung
// upstream, on an upload's body) before its time runs out, instead of resetting their connections.

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers every request still unanswered with 503, `Retry-After` and a closed connection; how many. */
    answerInFlight(retryAfterSeconds: number): number
    /** the requests being answered now (every one is forgotten once its exchange has ended) */
    readonly requestsInFlight: number
  }
}

export const inFlightPlugin = fp(
  async (app) => {
    const open = new Map<FastifyRequest, FastifyReply>()
    // a callback hook: a request passes without a promise made for it
    app.addHook('onRequest', (request, reply, done) => {
      // a socket upgrade is answered by the socket endpoint, which closes its sockets itself
      if (!(request.raw as IncomingMessage & { upgrade?: boolean }).upgrade) {
        open.set(request, reply)
        // 'close' comes once whatever way the exchange ends: the answer written, the client gone, or
        // the connection reset while the answer was on its way (where neither onResponse nor
        // onRequestAbort comes, and the request, an upload's body with it, would be held for good);
        // one closed before its answer was all written is counted and logged as the client's leaving
        reply.raw.once('close', () => {
          open.delete(request)
          if (!reply.raw.writableFinished) app.answerUnfinished(request, reply)
        })
      }
      done()
    })
    app.decorate('requestsInFlight', { getter: () => open.size })
    app.decorate('answerInFlight', (retryAfterSeconds: number) => {
      let answered = 0
      for (const [request, reply] of open) {
        open.delete(request)
        if (reply.sent || reply.raw.destroyed) continue
        reply
          .code(503)
          .header('retry-after', retryAfterSeconds)
          .header('connection', 'close')
          .send(errorBody(503, 'serviceUnavailable'))
        answered++
      }
      return answered
    })
  },
  { name: 'in-flight', dependencies: ['answer-envelope'] },
)
