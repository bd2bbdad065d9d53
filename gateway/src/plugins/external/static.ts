import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import fp from 'fastify-plugin'
import fastifyStatic from '@fastify/static'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorBody } from '../../lib/errors'

// The built client: hashed assets cached for a year, index.html always revalidated, and the SPA fallback.

const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'no-cache'
const COMPRESSED_SUFFIX = /\.(?:br|gz|deflate)$/
// first path segments that belong to the API and the socket, which must never turn into the client page
const SERVER_SEGMENTS = new Set(['api', 'admin', 'ws', 'sandbox'])

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TradeGate</title></head>
<body><h1>The web client is not built yet</h1>
<p>Run <code>npm run build -w web</code>, then reload. The API under <code>/api</code> is running.</p></body></html>`

export const staticPlugin = fp<{ root: string }>(
  async (app, { root }) => {
    const built = existsSync(join(root, 'index.html'))
    if (built) {
      await app.register(fastifyStatic, {
        root,
        preCompressed: true,
        dotfiles: 'ignore',
        cacheControl: false,
        setHeaders: (reply, path) => {
          const file = relative(root, path).replace(COMPRESSED_SUFFIX, '')
          reply.header('cache-control', file.startsWith('assets/') ? IMMUTABLE : REVALIDATE)
        },
      })
    } else {
      app.log.warn({ event: 'web_not_built', root }, 'web client not built; serving a placeholder page')
      app.get('/', (_request, reply) => sendPlaceholder(reply))
    }

    app.setNotFoundHandler(
      { preHandler: app.rateLimitHook },
      (request: FastifyRequest, reply: FastifyReply) => {
        const segment = firstSegment(request.url)
        if (SERVER_SEGMENTS.has(segment)) {
          if (segment === 'api') app.metrics.rejectedRequests.inc({ reason: 'unknown_route' })
          return reply.code(404).send(errorBody(404, 'notFound'))
        }
        if (!isPagePath(request)) return reply.code(404).send(errorBody(404, 'notFound'))
        if (!built) return sendPlaceholder(reply)
        return reply.header('cache-control', REVALIDATE).sendFile('index.html')
      },
    )
  },
  { name: 'static', dependencies: ['rate-limit'] },
)

/** The URL's first path segment, percent-decoded and in lower case, so `/API/…` and `/%61pi/…` read as `api`. */
function firstSegment(url: string): string {
  const end = url.slice(1).search(/[/?#]/)
  const segment = end < 0 ? url.slice(1) : url.slice(1, end + 1)
  try {
    return decodeURIComponent(segment).toLowerCase()
  } catch {
    return segment.toLowerCase()
  }
}

/** A client-side route: a GET for a path whose last segment has no file extension. */
function isPagePath(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const path = request.url.split('?', 1)[0] as string
  const last = path.slice(path.lastIndexOf('/') + 1)
  return !last.includes('.') && !last.includes('%')
}

function sendPlaceholder(reply: FastifyReply) {
  return reply
    .code(200)
    .header('cache-control', REVALIDATE)
    .type('text/html; charset=utf-8')
    .send(NOT_BUILT_PAGE)
}
