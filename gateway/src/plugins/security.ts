import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'
import type { IncomingMessage } from 'node:http'

// Security headers; the CSP allows only this origin, plus sockets to this same host.

const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** ws/wss of the host the page was loaded from; a malformed Host header gets no socket source at all. */
export function sameHostSockets(request: IncomingMessage): string {
  const host = request.headers.host
  return host && PLAIN_HOST.test(host) ? `ws://${host} wss://${host}` : "'self'"
}

export const securityPlugin = fp(
  async (app) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // React and the UI kit set style attributes and small inline style blocks
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", (request) => sameHostSockets(request as IncomingMessage)],
          workerSrc: ["'self'", 'blob:'],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    })
  },
  { name: 'security' },
)
