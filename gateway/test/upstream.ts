import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'
import { CALLS, CALL_NAMES } from '@tradegate/shared'

// The upstream the REST tests run against, driven only through its HTTP control calls.

export type FaultMode = 'error' | 'hang' | 'status503'

export interface TestUpstream {
  url: string
  /** calls received per route path */
  calls(): Promise<Record<string, number>>
  totalCalls(): Promise<number>
  resetCalls(): Promise<void>
  fail(count: number, mode: FaultMode, path?: string): Promise<void>
  close(): Promise<void>
}

export async function startUpstream(): Promise<TestUpstream> {
  const server = await startStandIn()
  return controlledUpstream(server.url, server.close)
}

export function controlledUpstream(url: string, close: () => Promise<void>): TestUpstream {
  const control = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`control call ${path} answered ${response.status}`)
    const envelope = (await response.json()) as { data?: unknown }
    return envelope.data
  }
  const calls = async () => (await control('GET', '/sandbox/calls')) as Record<string, number>
  return {
    url,
    calls,
    totalCalls: async () => Object.values(await calls()).reduce((sum, count) => sum + count, 0),
    resetCalls: async () => void (await control('POST', '/sandbox/calls/reset', {})),
    fail: async (count, mode, path) => void (await control('POST', '/sandbox/fail', { count, mode, path })),
    close,
  }
}

/** Stand-in with the sandbox's control calls, used until the sandbox exports startSandbox. */
async function startStandIn(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify()
  const counts = new Map<string, number>()
  let faults: Array<{ remaining: number; mode: FaultMode; path?: string }> = []
  app.addContentTypeParser('multipart/form-data', (_request, payload, done) => {
    payload.resume()
    payload.on('end', () => done(null, undefined))
  })
  for (const name of CALL_NAMES) {
    const call = CALLS[name]
    app.route({
      method: call.method,
      url: call.path,
      handler: async (request, reply) => {
        counts.set(call.path, (counts.get(call.path) ?? 0) + 1)
        const fault = faults.find((rule) => rule.remaining > 0 && (!rule.path || rule.path === call.path))
        if (fault) {
          fault.remaining--
          faults = faults.filter((rule) => rule.remaining > 0)
          if (fault.mode === 'status503') return reply.code(503).send({ code: 503, msg: 'unavailable' })
          if (fault.mode === 'error') return request.raw.socket.destroy()
          return new Promise(() => undefined)
        }
        return { code: 200, msg: 'success', data: { name, language: request.headers.language ?? null } }
      },
    })
  }
  app.get('/sandbox/calls', async () => ({ code: 200, data: Object.fromEntries(counts) }))
  app.post('/sandbox/calls/reset', async () => (counts.clear(), { code: 200, data: {} }))
  app.post('/sandbox/fail', async (request) => {
    faults.push(request.body as { remaining: number; mode: FaultMode; path?: string })
    const rule = faults.at(-1)!
    rule.remaining = (request.body as { count: number }).count
    return { code: 200, data: request.body }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      app.server.closeAllConnections()
      await app.close()
    },
  }
}
