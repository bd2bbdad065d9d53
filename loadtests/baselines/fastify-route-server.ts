/**
 * The REST floor: a bare Fastify route answering fixed bytes, what the gateway's cached
 * getAllSetting cannot beat. No hooks, no logging, no schema.
 *
 * Child process: `node --import tsx baselines/fastify-route-server.ts [--port N] [--body-file F]`
 * prints {"event":"listening","port":N,"pid":P}. The harness passes the sandbox's own answer as F.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import Fastify, { type FastifyInstance } from 'fastify'
import { CALLS } from '@tradegate/shared'
import { announceListening, exitOnSignal, isMainModule, LISTEN_BACKLOG } from '../bench/child-process'

/** A recorded getAllSetting answer, for tests; the harness serves the live sandbox's bytes instead. */
export const settingsBody = readFileSync(new URL('./fixtures/get-all-setting.json', import.meta.url))

export async function startFastifyRouteServer(
  options: { port?: number; host?: string; body?: Buffer } = {},
): Promise<{ app: FastifyInstance; port: number; url: string }> {
  const body = options.body ?? settingsBody
  const app = Fastify({ logger: false })
  app.get(CALLS.getAllSetting.path, (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(body)
  })
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', backlog: LISTEN_BACKLOG })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { app, port, url: `http://127.0.0.1:${port}` }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string' }, 'body-file': { type: 'string' } } })
  const body = values['body-file'] ? readFileSync(values['body-file']) : undefined
  const { app, port } = await startFastifyRouteServer({ port: Number(values.port ?? 0), body })
  exitOnSignal(() => app.close())
  announceListening(port)
}
