import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../helpers'
import { connectClient, type TestClient } from './client'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { rawUpgrade } from './raw-upgrade'

// A socket upgrade the gateway refuses is answered with an HTTP status and a {code,msg} body (and
// Retry-After where waiting helps), never with a reset connection.

describe('refused socket upgrades', () => {
  let upstream: SandboxUpstream
  let gateway: TestGateway
  let port = 0
  const clients: TestClient[] = []

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      REDIS_URL: '',
      ALLOWED_ORIGINS: 'https://app.example',
      WS_MAX_SOCKETS_PER_IP: 1,
      RATE_LIMIT_PER_MINUTE: 6,
    })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    port = (gateway.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()))
    await gateway?.close()
    await upstream?.close()
  })

  it('answers a foreign origin with 403, an unknown path with 404, draining with 503, and the per-address cap and spent budget with 429, with Retry-After where waiting helps', async () => {
    const foreign = await rawUpgrade(port, '/ws/client-1', { headers: { origin: 'https://evil.example' } })
    expect(foreign).toMatchObject({ status: 403, reset: false })
    expect(JSON.parse(foreign.body)).toEqual({ code: 403, msg: 'forbidden' })

    const nowhere = await rawUpgrade(port, '/ws/a/b/c')
    expect(nowhere).toMatchObject({ status: 404, reset: false })
    expect(JSON.parse(nowhere.body)).toEqual({ code: 404, msg: 'notFound' })

    clients.push(await connectClient(`ws://127.0.0.1:${port}/ws/client-2`))
    const second = await rawUpgrade(port, '/ws/client-3')
    expect(second).toMatchObject({ status: 429, reset: false })
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0)
    expect(JSON.parse(second.body)).toEqual({ code: 429, msg: 'tooManyRequests' })

    // a draining instance sends the client elsewhere
    gateway.app.readiness.draining = true
    const draining = await rawUpgrade(port, '/ws/client-draining')
    gateway.app.readiness.draining = false
    expect(draining).toMatchObject({ status: 503, reset: false })
    expect(Number(draining.headers['retry-after'])).toBeGreaterThan(0)
    expect(JSON.parse(draining.body)).toEqual({ code: 503, msg: 'serviceUnavailable' })

    // with the first socket gone, upgrades go through until the budget of six a minute is spent
    await clients.pop()!.close()
    const statuses: number[] = []
    let spent = second
    while (statuses.length < 8 && !statuses.includes(429)) {
      spent = await rawUpgrade(port, `/ws/budget-${statuses.length}`)
      expect(spent.reset).toBe(false)
      statuses.push(spent.status)
    }
    expect(statuses.slice(0, -1).every((status) => status === 101)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.length).toBeLessThanOrEqual(6)
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0)
    expect(JSON.parse(spent.body)).toEqual({ code: 429, msg: 'tooManyRequests' })
  })

  it.each([
    ['no Sec-WebSocket-Key', { 'sec-websocket-key': '' }, '127.0.0.11'],
    ['a Sec-WebSocket-Key that is not 16 bytes of base64', { 'sec-websocket-key': 'short' }, '127.0.0.12'],
    ['an unknown Sec-WebSocket-Version', { 'sec-websocket-version': '12' }, '127.0.0.13'],
    ['an Upgrade to another protocol', { upgrade: 'h2c' }, '127.0.0.14'],
    ['a malformed Sec-WebSocket-Protocol list', { 'sec-websocket-protocol': 'a,,b' }, '127.0.0.15'],
  ] as Array<[string, Record<string, string>, string]>)(
    'answers an upgrade with %s with 400 and the usual body, not plain text',
    async (_kind, headers, localAddress) => {
      // an address of its own: the first test spends 127.0.0.1's budget of upgrades
      const answer = await rawUpgrade(port, '/ws/malformed', { headers, localAddress })
      const status = 400
      expect(answer).toMatchObject({ status, reset: false })
      expect(answer.headers['content-type']).toMatch(/^application\/json/)
      expect(JSON.parse(answer.body)).toEqual({ code: status, msg: 'badRequest', detail: 'handshake' })
      if (headers['sec-websocket-version']) expect(answer.headers['sec-websocket-version']).toBe('13, 8')
    },
  )
})
