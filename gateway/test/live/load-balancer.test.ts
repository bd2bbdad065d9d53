import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { uniquePrefix, waitFor } from './helpers'
import {
  startGatewayProcess,
  startNginx,
  startNginxLogMetrics,
  type ChildHandle,
  type LogMetricsHandle,
  type NginxHandle,
} from './processes'

// docker/nginx.conf in front of two gateway processes: when the upstream behind every gateway fails,
// the gateways' own 502s reach the clients and no gateway is taken out of rotation, so cached calls
// keep answering; nginx logs each request as JSON and shows its own status to local scrapers, and
// mtail turns that log into counters that tell nginx's own 5xx from the gateways' passed-through ones.

// One scenario in steps, so its order is kept even when tests are shuffled: the second step closes the
// upstream, and the last counts the 5xx the steps before it caused, then kills the gateways.
describe('docker/nginx.conf in front of two gateways', { shuffle: false }, () => {
  let upstream: SandboxUpstream
  let gateways: ChildHandle[] = []
  let nginx: NginxHandle
  let logMetrics: LogMetricsHandle
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
    logMetrics = await startNginxLogMetrics(nginx.accessLogFile)
  }, 90_000)
  afterAll(async () => {
    await logMetrics?.kill('SIGTERM')
    await nginx?.close()
    await Promise.all(gateways.map((gateway) => gateway.kill('SIGTERM')))
    await upstream?.close()
  })

  it("passes 503s through without taking a gateway out: the upstream's own, or a gateway shedding load", async () => {
    await upstream.control('/sandbox/fail', { count: 1000, mode: 'status503', path: CALLS.assetBalance.path })
    try {
      // more than max_fails per gateway: each would be skipped if a 503 counted against it
      for (let i = 0; i < 10; i++) {
        const answer = await get(CALLS.assetBalance.path)
        expect(answer.status).toBe(503)
        expect(answer.headers.has('x-request-id')).toBe(true)
      }
      const others = await Promise.all(Array.from({ length: 10 }, () => get(CALLS.getCoinList.path)))
      expect(others.map((answer) => answer.status)).toEqual(Array(10).fill(200))
      expect(nginx.errorLog()).not.toMatch(/no live upstreams|temporarily disabled/)
    } finally {
      await upstream.control('/sandbox/fail/clear', {})
    }
  }, 60_000)

  it("passes the gateways' 502s and 503s through without taking a gateway out, so cached calls keep answering", async () => {
    // both gateways hold the coin list in their cache
    for (let i = 0; i < 4; i++) expect((await get(CALLS.getCoinList.path)).status).toBe(200)
    await upstream.close()

    const failed = await Promise.all(Array.from({ length: 10 }, () => get(CALLS.assetBalance.path)))
    for (const answer of failed) {
      // 502 from a gateway whose connection was refused, 503 from one that already knew the upstream
      // down; either way the gateway's own body, not nginx's "no live upstreams" page
      const status = answer.status
      expect([502, 503]).toContain(status)
      expect(await answer.json()).toEqual({ code: status, msg: 'upstreamUnavailable' })
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

  it("counts the gateways' 5xx as answers and nginx's own 502s as load balancer errors", async () => {
    // the upstream is gone (first test): each gateway answers 502 or 503 itself, with its request id
    await Promise.all(Array.from({ length: 5 }, () => get(CALLS.assetBalance.path)))
    const gatewayAnswers = async () =>
      (await logMetrics.counter('nginx_http_responses_total', { status: '502' })) +
      (await logMetrics.counter('nginx_http_responses_total', { status: '503' }))
    await waitFor(async () => (await gatewayAnswers()) >= 15, "mtail reading the gateways' 5xx")
    expect(await logMetrics.counter('nginx_lb_errors_total')).toBe(0)

    // every gateway gone: nginx answers 502 itself
    await Promise.all(gateways.map((gateway) => gateway.kill('SIGKILL')))
    const answers = await Promise.all(Array.from({ length: 4 }, () => get(CALLS.getCoinList.path)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(4).fill(502))
    await waitFor(
      async () => (await logMetrics.counter('nginx_lb_errors_total')) === 4,
      "mtail counting nginx's own 502s",
    )
  }, 60_000)
})
