/**
 * The proxy floor: Node's own HTTP server handing each request to an undici pool, the same client
 * the gateway uses, with no routing, checks, logging or metrics. What any Node proxy stands on, so
 * the gateway's proxied throughput can be read against it as well as against nginx, and its signed-in
 * uploads row against the same uploads streamed through nothing else (a multipart body streams to the
 * upstream as it arrives, the session header goes with it, and /healthz is answered here, as the
 * gateway does each).
 *
 * Child process: `node --import tsx baselines/node-proxy-server.ts --upstream URL [--port N]`
 * prints {"event":"listening","port":N,"pid":P}.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { Pool, type Dispatcher } from 'undici'
import { announceListening, exitOnSignal, isMainModule, LISTEN_BACKLOG } from '../bench/child-process'

/** Collects the upstream answer and writes it back in one piece, as the gateway does. */
function answerWith(response: ServerResponse): Dispatcher.DispatchHandler {
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
      const body = Buffer.concat(chunks)
      response.writeHead(status, {
        ...(contentType ? { 'content-type': contentType } : {}),
        'content-length': body.length,
      })
      response.end(body)
    },
    onResponseError() {
      response.writeHead(502).end()
    },
  }
}

export async function startNodeProxyServer(options: {
  upstream: string
  port?: number
  host?: string
}): Promise<{ server: Server; pool: Pool; port: number; url: string; close(): Promise<void> }> {
  const pool = new Pool(new URL(options.upstream).origin, { connections: 256 })
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/healthz') return void response.writeHead(200).end('ok')
    const type = request.headers['content-type']
    const headers = {
      ...(type ? { 'content-type': type } : {}),
      ...(request.headers.satoken ? { satoken: request.headers.satoken } : {}),
    }
    if (type?.startsWith('multipart/form-data')) {
      pool.dispatch(
        { method: 'POST', path: request.url ?? '/', headers, body: request },
        answerWith(response),
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
        answerWith(response),
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
  const { values } = parseArgs({ options: { port: { type: 'string' }, upstream: { type: 'string' } } })
  if (!values.upstream) throw new Error('--upstream URL is required')
  const proxy = await startNodeProxyServer({ upstream: values.upstream, port: Number(values.port ?? 0) })
  exitOnSignal(() => proxy.close())
  announceListening(proxy.port)
}
