/**
 * The REST floor: a bare Fastify route answering fixed bytes, what the gateway's cached
 * getAllSetting cannot beat. No hooks, no logging, no schema.
 *
 * Child process: `node --import tsx baselines/fastify-route-server.ts [--port N]`
 * prints {"event":"listening","port":N,"pid":P}.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import Fastify, { type FastifyInstance } from 'fastify'
import { announceListening, exitOnSignal, isMainModule } from '../bench/child-process'

export const SETTINGS_PATH = '/api/common/getAllSetting'
/** Stands in for the sandbox's getAllSetting answer until the harness can fetch the real bytes. */
export const settingsBody = readFileSync(new URL('./fixtures/get-all-setting.json', import.meta.url))

export async function startFastifyRouteServer(
  options: { port?: number; host?: string; body?: Buffer } = {},
): Promise<{ app: FastifyInstance; port: number; url: string }> {
  const body = options.body ?? settingsBody
  const app = Fastify({ logger: false })
  app.get(SETTINGS_PATH, (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(body)
  })
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { app, port, url: `http://127.0.0.1:${port}` }
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string' } } })
  const { app, port } = await startFastifyRouteServer({ port: Number(values.port ?? 0) })
  exitOnSignal(() => app.close())
  announceListening(port)
}
