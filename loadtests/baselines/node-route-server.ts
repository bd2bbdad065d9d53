/**
 * The floor under the bare Fastify route: node:http alone answering fixed bytes, the least any Node
 * route can do per request. No framework, no hooks, no logging.
 *
 * Child process: `node --import tsx baselines/node-route-server.ts [--port N] [--body-file F]`
 * prints {"event":"listening","port":N,"pid":P}. The harness passes the sandbox's own answer as F.
 */
import { createServer, type Server } from 'node:http'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { CALLS } from '@tradegate/shared'
import { announceListening, exitOnSignal, isMainModule, LISTEN_BACKLOG } from '../bench/child-process'
import { settingsBody } from './fastify-route-server'

export async function startNodeRouteServer(
  options: { port?: number; host?: string; body?: Buffer } = {},
): Promise<{ server: Server; port: number; url: string }> {
  const body = options.body ?? settingsBody
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === CALLS.getAllSetting.path) {
      response.writeHead(200, headers).end(body)
      return
    }
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) =>
    server.listen(
      { port: options.port ?? 0, host: options.host ?? '127.0.0.1', backlog: LISTEN_BACKLOG },
      resolve,
    ),
  )
  const { port } = server.address() as AddressInfo
  return { server, port, url: `http://127.0.0.1:${port}` }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string' }, 'body-file': { type: 'string' } } })
  const body = values['body-file'] ? readFileSync(values['body-file']) : undefined
  const { server, port } = await startNodeRouteServer({ port: Number(values.port ?? 0), body })
  exitOnSignal(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  )
  announceListening(port)
}
