/**
 * Fastify with @fastify/http-proxy in front of the sandbox, no other plugin: what the gateway's proxy
 * path would stand on if it were built on the plugin the design names, beside the bare node proxy
 * (node:http and undici alone) and the gateway's own path, on the same call.
 *
 * Child process: `node --import tsx baselines/fastify-http-proxy-server.ts --upstream URL [--port N]`
 * prints {"event":"listening","port":N,"pid":P}.
 */
import { parseArgs } from 'node:util'
import Fastify, { type FastifyInstance } from 'fastify'
import httpProxy from '@fastify/http-proxy'
import { announceListening, exitOnSignal, isMainModule, LISTEN_BACKLOG } from '../bench/child-process'

export async function startFastifyHttpProxyServer(options: {
  upstream: string
  port?: number
  host?: string
}): Promise<{ app: FastifyInstance; port: number; url: string }> {
  const app = Fastify({ logger: false })
  await app.register(httpProxy, { upstream: new URL(options.upstream).origin, http2: false })
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', backlog: LISTEN_BACKLOG })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { app, port, url: `http://127.0.0.1:${port}` }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string' }, upstream: { type: 'string' } } })
  if (!values.upstream) throw new Error('--upstream URL is required')
  const { app, port } = await startFastifyHttpProxyServer({
    upstream: values.upstream,
    port: Number(values.port ?? 0),
  })
  exitOnSignal(() => app.close())
  announceListening(port)
}
