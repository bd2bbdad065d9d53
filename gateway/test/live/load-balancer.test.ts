import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { uniquePrefix } from './helpers'
import { startGatewayProcess, startNginx, type ChildHandle, type NginxHandle } from './processes'

// docker/nginx.conf in front of two gateway processes: when the upstream behind every gateway fails,
// the gateways' own 502s reach the clients and no gateway is taken out of rotation, so cached calls
// keep answering; nginx logs each request as JSON and shows its own status to local scrapers.

describe('docker/nginx.conf in front of two gateways', () => {
  let upstream: SandboxUpstream
  let gateways: ChildHandle[] = []
  let nginx: NginxHandle
  const get = (path: string) => fetch(`http://127.0.0.1:${nginx.port}${path}`)

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    const env = {
      UPSTREAM_URL: upstream.url,
      FEED_TOKEN,
      REDIS_URL: '',
      REDIS_PREFIX: uniquePrefix('nginx'),
      TRUST_PROXY: 'loopback',
      UPSTREAM_GET_RETRIES: '0',
    }
    gateways = await Promise.all([
      startGatewayProcess({ ...env, INSTANCE_ID: 'gateway-a' }),
      startGatewayProcess({ ...env, INSTANCE_ID: 'gateway-b' }),
    ])
    nginx = await startNginx(gateways.map((gateway) => gateway.port))
  }, 90_000)
  afterAll(async () => {
    await nginx?.close()
    await Promise.all(gateways.map((gateway) => gateway.kill('SIGTERM')))
    await upstream?.close()
  })

  it("passes the gateways' 502s through without taking a gateway out, so cached calls keep answering", async () => {
    // both gateways hold the coin list in their cache
    for (let i = 0; i < 4; i++) expect((await get(CALLS.getCoinList.path)).status).toBe(200)
    await upstream.close()

    const failed = await Promise.all(Array.from({ length: 10 }, () => get(CALLS.assetBalance.path)))
    for (const answer of failed) {
      expect(answer.status).toBe(502)
      // the gateway's own body, not nginx's "no live upstreams" page
      expect(await answer.json()).toEqual({ code: 502, msg: 'upstreamUnavailable' })
    }
    const cached = await Promise.all(Array.from({ length: 10 }, () => get(CALLS.getCoinList.path)))
    expect(cached.map((answer) => answer.status)).toEqual(Array(10).fill(200))
  }, 60_000)

  it('logs each request as one JSON line with the client, the gateway, the status and the times', async () => {
    await get('/healthz')
    const lines = nginx
      .accessLog()
      .split('\n')
      .filter((line) => line.startsWith('{"time"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    const health = lines.filter((line) => line.path === '/healthz').at(-1)
    expect(health).toMatchObject({ client: '127.0.0.1', method: 'GET', status: 200 })
    expect(health?.upstream).toMatch(/^127\.0\.0\.1:\d+$/)
    expect(Number(health?.upstreamSeconds)).toBeGreaterThanOrEqual(0)
    expect(typeof health?.requestSeconds).toBe('number')
    expect(health?.requestId).toMatch(/^[\w.-]+$/)
  })

  it('shows its own status to a scraper on the machine', async () => {
    const status = await get('/nginx_status')
    expect(status.status).toBe(200)
    expect(await status.text()).toMatch(/^Active connections: \d+/)
  })
})
