/**
 * The proxy floors: each request handed to an undici pool, the same client the gateway uses, with no
 * checks, logging or metrics.
 *
 * `--framework node` (the default): Node's own HTTP server and nothing else. What any Node proxy stands
 * on, so the gateway's proxied throughput can be read against it as well as against nginx, and its
 * signed-in uploads row against the same uploads streamed through nothing else (a multipart body
 * streams to the upstream as it arrives, the session header goes with it, and /healthz is answered
 * here, as the gateway does each).
 *
 * `--framework fastify`: the same trip from one bare Fastify route (its body read as a buffer, the
 * answer sent through the reply, no hook, schema or plugin). What the gateway's proxy path stands on
 * before any of its own work, since the design builds it on Fastify: the gap between the two floors is
 * the framework's, the gap above the Fastify floor the gateway's.
 *
 * Child process: `node --import tsx baselines/node-proxy-server.ts --upstream URL [--framework
 * node|fastify] [--port N]` prints {"event":"listening","port":N,"pid":P}.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import Fastify from 'fastify'
import { Pool, type Dispatcher } from 'undici'
import { announceListening, exitOnSignal, isMainModule, LISTEN_BACKLOG } from '../bench/child-process'

/** The upstream's answer in one piece (as the gateway collects it), or nothing when the trip failed. */
type Answered = (answer: { status: number; contentType?: string; body: Buffer } | undefined) => void

/** Collects the upstream answer and hands it on in one piece, as the gateway does. */
function collectAnswer(answered: Answered): Dispatcher.DispatchHandler {
  let status = 502
  let contentType: string | undefined
  const chunks: Buffer[] = []
  return {
    onRequestStart() {},
    onResponseStart(_controller, statusCode, headers) {
      status = statusCode
      const type = headers['content-type']
      contentType = Array.isArray(type) ? type[0] : type
    },
    onResponseData(_controller, chunk) {
      chunks.push(chunk)
    },
    onResponseEnd() {
      answered({ status, contentType, body: Buffer.concat(chunks) })
    },
    onResponseError() {
      answered(undefined)
    },
  }
}

/** The headers that go up: the body's type and the session, nothing else. */
function upstreamHeaders(request: IncomingMessage): Record<string, string> {
  const type = request.headers['content-type']
  const token = request.headers.satoken
  return {
    ...(type ? { 'content-type': type } : {}),
    ...(typeof token === 'string' ? { satoken: token } : {}),
  }
}

function writeAnswer(response: ServerResponse): Answered {
  return (answer) => {
    if (!answer) return void response.writeHead(502).end()
    response.writeHead(answer.status, {
      ...(answer.contentType ? { 'content-type': answer.contentType } : {}),
      'content-length': answer.body.length,
    })
    response.end(answer.body)
  }
}

export interface ProxyServer {
  pool: Pool
  port: number
  url: string
  close(): Promise<void>
}

interface ProxyOptions {
  upstream: string
  port?: number
  host?: string
}

/** The Fastify floor: one catch-all route, the body as a buffer, the answer through the reply. */
export async function startFastifyProxyServer(options: ProxyOptions): Promise<ProxyServer> {
  const pool = new Pool(new URL(options.upstream).origin, { connections: 256 })
  const app = Fastify({ logger: false })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
  app.get('/healthz', (_request, reply) => void reply.send('ok'))
  app.all('/*', (request, reply) => {
    const body = request.body instanceof Buffer && request.body.length ? request.body : undefined
    pool.dispatch(
      { method: request.method, path: request.url, headers: upstreamHeaders(request.raw), body },
      collectAnswer((answer) => {
        if (!answer) return void reply.code(502).send()
        if (answer.contentType) reply.header('content-type', answer.contentType)
        reply.code(answer.status).send(answer.body)
      }),
    )
    return reply
  })
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', backlog: LISTEN_BACKLOG })
  const port = (app.server.address() as AddressInfo).port
  return {
    pool,
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close()
      await pool.close()
    },
  }
}

export async function startNodeProxyServer(options: ProxyOptions): Promise<ProxyServer & { server: Server }> {
  const pool = new Pool(new URL(options.upstream).origin, { connections: 256 })
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/healthz') return void response.writeHead(200).end('ok')
    const headers = upstreamHeaders(request)
    const type = headers['content-type']
    if (type?.startsWith('multipart/form-data')) {
      pool.dispatch(
        { method: 'POST', path: request.url ?? '/', headers, body: request },
        collectAnswer(writeAnswer(response)),
      )
      return
    }
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      pool.dispatch(
        {
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        },
        collectAnswer(writeAnswer(response)),
      )
    })
  })
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1', LISTEN_BACKLOG)
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    server,
    pool,
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await pool.close()
    },
  }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      upstream: { type: 'string' },
      framework: { type: 'string', default: 'node' },
    },
  })
  if (!values.upstream) throw new Error('--upstream URL is required')
  if (values.framework !== 'node' && values.framework !== 'fastify')
    throw new Error(`--framework takes node or fastify, got "${values.framework}"`)
  const start = values.framework === 'fastify' ? startFastifyProxyServer : startNodeProxyServer
  const proxy = await start({ upstream: values.upstream, port: Number(values.port ?? 0) })
  exitOnSignal(() => proxy.close())
  announceListening(proxy.port)
}
