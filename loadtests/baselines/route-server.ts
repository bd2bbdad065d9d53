/**
 * The REST floors: fixed bytes on the getAllSetting path, what the gateway's cached getAllSetting
 * cannot beat. `--framework fastify`: a bare Fastify route (no hooks, no logging, no schema);
 * `--framework node`: node:http alone, the least any Node route can do per request.
 *
 * Child process: `node --import tsx baselines/route-server.ts --framework fastify|node --body-file F
 *   [--port N]` prints {"event":"listening","port":N,"pid":P}. The harness passes the sandbox's own
 * answer as F.
 */
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import Fastify from 'fastify'
import { CALLS } from '@tradegate/shared'
import { announceListening, exitOnSignal, isMainModule, LISTEN_BACKLOG } from '../bench/child-process'

const TYPE = 'application/json; charset=utf-8'

export async function startRouteServer(options: {
  framework: 'fastify' | 'node'
  body: Buffer
  port?: number
}): Promise<{ port: number; close(): Promise<void> }> {
  const { body } = options
  const listen = { port: options.port ?? 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG }
  if (options.framework === 'fastify') {
    const app = Fastify({ logger: false })
    app.get(CALLS.getAllSetting.path, (_request, reply) => void reply.header('content-type', TYPE).send(body))
    await app.listen(listen)
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() }
  }
  const headers = { 'content-type': TYPE, 'content-length': body.length }
  const server = createServer((request, response) => {
    const found = request.method === 'GET' && request.url === CALLS.getAllSetting.path
    response.writeHead(found ? 200 : 404, found ? headers : {}).end(found ? body : undefined)
  })
  await new Promise<void>((resolve) => server.listen(listen, resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, 'body-file': { type: 'string' }, framework: { type: 'string' } },
  })
  const { framework } = values
  if ((framework !== 'fastify' && framework !== 'node') || !values['body-file'])
    throw new Error('--framework fastify|node and --body-file F are required')
  const server = await startRouteServer({
    framework,
    body: readFileSync(values['body-file']),
    port: Number(values.port ?? 0),
  })
  exitOnSignal(server.close)
  announceListening(server.port)
}
