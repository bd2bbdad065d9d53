import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'
import type { IncomingMessage } from 'node:http'

// Security headers. Pages get helmet's full set with a CSP allowing only this origin and sockets to
// this same host; API answers (JSON, never rendered) get only the headers that matter for them.

const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** ws/wss of the host the page was loaded from; a malformed Host header gets no socket source at all. */
function sameHostSockets(request: IncomingMessage): string {
  const host = request.headers.host
  return host && PLAIN_HOST.test(host) ? `ws://${host} wss://${host}` : "'self'"
}

/** Set on API answers, whose routes opt out of helmet's per-request work with `helmet: false`. */
export const API_SECURITY_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
})

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
