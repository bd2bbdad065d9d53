import fp from 'fastify-plugin'
import { errorBody } from '../../lib/errors'

// The socket endpoint speaks only WebSocket: a plain request under /ws/ is answered with the same JSON
// 404 body as any other unknown path, not the empty answer the socket route would give it.

const SOCKET_PREFIX = /^\/ws(?:\/|$)/

export const socketPathPlugin = fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      if (!SOCKET_PREFIX.test(request.url) || request.headers.upgrade !== undefined) return done()
      reply.code(404).send(errorBody(404, 'notFound'))
    })
  },
  { name: 'socket-path' },
)
