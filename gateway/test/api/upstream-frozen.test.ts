import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Upstream, UpstreamError } from '../../src/upstream/upstream'
import { createMetrics } from '../../src/plugins/app/metrics'
import { startTestGateway, waitFor, type TestGateway } from '../helpers'

// A frozen upstream accepts connections and answers nothing: every instance must see it (not only
// the one reading the feed), and each call waits only as long as its timeout.

describe('a frozen upstream', () => {
  let frozen = false
  const held: ServerResponse[] = []
  const server = createServer((request, response) => {
    request.resume()
    if (frozen) return void held.push(response)
    // a slow call: answers after 3 s, longer than the short default timeout below
    const delay = request.url === '/slow' ? 3000 : 0
    setTimeout(() => response.end('{"code":200,"msg":"ok","data":null}'), delay).unref()
  })
  let url = ''
  let gateway: TestGateway

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    gateway = await startTestGateway({ UPSTREAM_URL: url, REDIS_URL: '' })
  })
  afterAll(async () => {
    await gateway?.close()
    for (const response of held) response.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('makes the instance unready while it answers nothing, logs each change, and recovers', async () => {
    const readyz = async () => await gateway.app.inject({ url: '/readyz' })
    expect((await readyz()).statusCode).toBe(200)
    frozen = true
    await waitFor(async () => (await readyz()).statusCode === 503, 'not ready', 30_000)
    expect((await readyz()).json().reasons).toEqual(['upstream: upstream not answering'])
    frozen = false
    for (const response of held.splice(0)) response.end('{}')
    await waitFor(async () => (await readyz()).statusCode === 200, 'ready again', 30_000)
    const changes = gateway.logs.filter((line) => line.event === 'not_ready' || line.event === 'ready')
    expect(changes.map((line) => [line.event, line.reasons])).toEqual([
      ['not_ready', ['upstream: upstream not answering']],
      ['ready', undefined],
    ])
  }, 70_000)

  it('gives a call its own timeout when the call table sets one', async () => {
    const upstream = new Upstream(
      { url, connectTimeoutMs: 1000, responseTimeoutMs: 500, getRetries: 0, breakerFailures: 3 },
      createMetrics('frozen-test'),
    )
    try {
      const slow = { method: 'GET', path: '/slow', headers: {}, route: '/slow' } as const
      const error = await upstream.request(slow).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(UpstreamError)
      expect((error as UpstreamError).kind).toBe('timeout')
      const answer = await upstream.request({ ...slow, timeoutMs: 20_000 })
      expect(answer.status).toBe(200)
    } finally {
      await upstream.close()
    }
  }, 40_000)
})
