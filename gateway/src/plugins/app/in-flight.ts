import type { IncomingMessage, ServerResponse } from 'node:http'
import fp from 'fastify-plugin'
import type { FastifyReply } from 'fastify'
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

/** One request being answered, linked to its neighbours in the list of those open. */
interface OpenExchange {
  reply: FastifyReply
  previous: OpenExchange | null
  next: OpenExchange | null
}

/** The exchange a response belongs to, for the one 'close' listener every response shares. */
const EXCHANGE = Symbol('openExchange')
type TrackedResponse = ServerResponse & { [EXCHANGE]?: OpenExchange }

/**
 * The open exchanges as a list linked through the exchanges themselves, not a Map keyed by request: with
 * the Map, a gateway under the bench's proxied load promoted 1.5 MB out of the young generation at each of
 * its collections (0.12 MB with this list), each collection paused 5–8 ms instead of about 2, and the old
 * generation filled, so full collections came every few seconds (`node --trace-gc-nvp`, LIFECYCLE.md).
 */
class OpenExchanges {
  private first: OpenExchange | null = null
  size = 0

  add(reply: FastifyReply): OpenExchange {
    const exchange: OpenExchange = { reply, previous: null, next: this.first }
    if (this.first) this.first.previous = exchange
    this.first = exchange
    this.size++
    return exchange
  }

  /** Forgets an exchange; one already forgotten is left alone. */
  remove(exchange: OpenExchange): void {
    if (exchange.previous === null && this.first !== exchange) return
    if (exchange.previous) exchange.previous.next = exchange.next
    else this.first = exchange.next
    if (exchange.next) exchange.next.previous = exchange.previous
    exchange.previous = exchange.next = null
    this.size--
  }

  /** Forgets every exchange, returning their replies. */
  takeAll(): FastifyReply[] {
    const replies: FastifyReply[] = []
    while (this.first) {
      replies.push(this.first.reply)
      this.remove(this.first)
    }
    return replies
  }
}

export const inFlightPlugin = fp(
  async (app) => {
    const open = new OpenExchanges()
    // one listener for every response rather than a closure per request: a response emits 'close' once
    function forget(this: TrackedResponse): void {
      const exchange = this[EXCHANGE]!
      open.remove(exchange)
      const { reply } = exchange
      // one closed before its answer was all written is counted and logged as the client's leaving
      if (!this.writableFinished) app.answerUnfinished(reply.request, reply)
    }
    // a callback hook: a request passes without a promise made for it
    app.addHook('onRequest', (request, reply, done) => {
      // a socket upgrade is answered by the socket endpoint, which closes its sockets itself
      if (!(request.raw as IncomingMessage & { upgrade?: boolean }).upgrade) {
        ;(reply.raw as TrackedResponse)[EXCHANGE] = open.add(reply)
        // 'close' comes once whatever way the exchange ends: the answer written, the client gone, or
        // the connection reset while the answer was on its way (where neither onResponse nor
        // onRequestAbort comes, and the request, an upload's body with it, would be held for good)
        reply.raw.on('close', forget)
      }
      done()
    })
    app.decorate('requestsInFlight', { getter: () => open.size })
    app.decorate('answerInFlight', (retryAfterSeconds: number) => {
      let answered = 0
      for (const reply of open.takeAll()) {
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
