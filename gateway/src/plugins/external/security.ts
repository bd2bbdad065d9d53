import fp from 'fastify-plugin'
import helmet from 'helmet'

// Security headers. Pages get helmet's full set with a CSP built from configuration alone: this origin
// ('self', which covers its own ws: and wss: sockets) and the configured ALLOWED_ORIGINS with their socket
// forms. Nothing from the request (its Host header) ever reaches the policy. API answers (JSON, never
// rendered) get only the headers that matter for them, from the answer envelope (plugins/app/answer-envelope.ts).

/** connect-src for the configured origins: each origin, and its ws/wss form for sockets. */
export function connectSources(allowedOrigins: readonly string[]): string[] {
  const sources = ["'self'"]
  for (const origin of allowedOrigins) {
    const url = URL.canParse(origin) ? new URL(origin) : null
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) continue
    sources.push(url.origin, `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`)
  }
  return [...new Set(sources)]
}

export interface SecurityOptions {
  /** ALLOWED_ORIGINS, parsed */
  allowedOrigins: readonly string[]
}

export const securityPlugin = fp<SecurityOptions>(
  async (app, { allowedOrigins }) => {
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
          connectSrc: connectSources(allowedOrigins),
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
      if (request.routeOptions.config.apiAnswer) return done()
      pageHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined))
    })
  },
  { name: 'security', dependencies: ['answer-envelope'] },
)
