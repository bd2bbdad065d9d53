import fp from 'fastify-plugin'
import helmet from 'helmet'
import type { IncomingMessage } from 'node:http'

// Security headers. Pages get helmet's full set with a CSP allowing only this origin and sockets to
// this same host; API answers (JSON, never rendered) get only the headers that matter for them.

const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** ws/wss of the host the page was loaded from; a malformed Host header gets no socket source at all. */
function sameHostSockets(request: IncomingMessage): string {
  const host = request.headers.host
  return host && PLAIN_HOST.test(host) ? `ws://${host} wss://${host}` : "'self'"
}

/** Set on API answers (routes whose config has `apiAnswer: true`) instead of helmet's full set. */
export const API_SECURITY_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
})

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a JSON API route: it gets API_SECURITY_HEADERS instead of the page headers */
    apiAnswer?: boolean
  }
}

export const securityPlugin = fp(
  async (app) => {
    // built once: @fastify/helmet rebuilt it per request and ran two hooks (one async) even on API routes
    const pageHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // React and the UI kit set style attributes and small inline style blocks
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", sameHostSockets],
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
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.apiAnswer) {
        reply.headers(API_SECURITY_HEADERS)
        return done()
      }
      pageHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined))
    })
  },
  { name: 'security' },
)
