import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { ConfigError, loadConfig } from '../../src/config'
import { startTestGateway, startUpstream, type TestGateway, type TestUpstream } from '../helpers'
import { freePort } from '../../../scripts/free-port.mjs'

// METRICS_PORT moves /metrics off the public port onto a listener of its own; METRICS_TOKEN guards
// it with a bearer token wherever it answers.

const TOKEN = 'metrics-token-5d1f0c9a7e'

let upstream: TestUpstream
beforeAll(async () => {
  upstream = await startUpstream()
})
afterAll(async () => {
  await upstream?.close()
})

/** A gateway listening on a free public port, with the given metrics settings. */
async function listening(
  settings: { METRICS_PORT?: number; METRICS_TOKEN?: string } = {},
): Promise<{ gateway: TestGateway; base: string }> {
  const gateway = await startTestGateway({ UPSTREAM_URL: upstream.url, REDIS_URL: '', ...settings })
  await gateway.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = gateway.app.server.address() as AddressInfo
  return { gateway, base: `http://127.0.0.1:${port}` }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('METRICS_PORT', () => {
  let gateway: TestGateway
  let base = ''
  let metricsBase = ''

  beforeAll(async () => {
    const port = await freePort()
    ;({ gateway, base } = await listening({ METRICS_PORT: port }))
    metricsBase = `http://127.0.0.1:${port}`
  })
  afterAll(async () => {
    await gateway?.close()
  })

  it('serves /metrics on its own port, counting the traffic of the public one', async () => {
    expect((await fetch(base + CALLS.getCoinList.path)).status).toBe(200)
    const response = await fetch(`${metricsBase}/metrics`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/plain')
    const text = await response.text()
    expect(text).toMatch(
      /^gateway_http_requests_total\{route="\/api\/common\/getCoinList",method="GET",status="200",gateway_instance="[^"]+"\} [1-9]/m,
    )
    // `instance` is the scrape target's label, set by Prometheus: no series of the gateway carries one
    expect(text).not.toMatch(/[{,]instance="/)
    expect(text).toMatch(/^gateway_ready\{[^}]*\} [01]$/m)
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds\{[^}]*\} /m)
    // without Redis: no Redis to be down, and this instance reads the feed itself
    expect(text).not.toContain('gateway_redis_up')
    expect(text).toMatch(/^gateway_feed_leader\{[^}]*\} 1$/m)
  })

  it('answers 404 for /metrics on the public port, not the client page', async () => {
    const response = await fetch(`${base}/metrics`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ code: 404, msg: 'notFound' })
  })

  it('answers nothing but GET /metrics on the metrics port, and never proxies a call', async () => {
    await upstream.resetCalls()
    for (const path of [
      '/',
      '/healthz',
      CALLS.getCoinList.path,
      '/metrics/../api/common/getCoinList',
      '/metricsx',
    ]) {
      const response = await fetch(metricsBase + path)
      expect(response.status, path).toBe(404)
      expect(await response.json()).toEqual({ code: 404, msg: 'notFound' })
    }
    expect((await fetch(`${metricsBase}/metrics`, { method: 'POST', body: 'x' })).status).toBe(404)
    expect((await fetch(`${metricsBase}/metrics?format=x`)).status).toBe(200)
    expect(await upstream.totalCalls()).toBe(0)
  })

  it('keeps answering while the public port sheds or drains', async () => {
    gateway.app.readiness.draining = true
    try {
      // REST is still answered while draining, each answer closing its connection
      const answer = await fetch(base + CALLS.getCoinList.path)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('connection')).toBe('close')
      const text = await (await fetch(`${metricsBase}/metrics`)).text()
      expect(text).toMatch(/^gateway_ready\{[^}]*\} 0$/m)
    } finally {
      gateway.app.readiness.draining = false
    }
    expect(await (await fetch(`${metricsBase}/metrics`)).text()).toMatch(/^gateway_ready\{[^}]*\} 1$/m)
  })

  it('closes its listener with the gateway', async () => {
    const port = await freePort()
    const { gateway: other } = await listening({ METRICS_PORT: port })
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200)
    await other.close()
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow()
  })

  it('fails the start when its port is taken', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as AddressInfo).port
    const gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url,
      REDIS_URL: '',
      HOST: '127.0.0.1',
      METRICS_PORT: port,
    }).catch((error: unknown) => error)
    try {
      expect(gateway).toBeInstanceOf(Error)
      expect((gateway as NodeJS.ErrnoException).code).toBe('EADDRINUSE')
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })
})

describe('METRICS_TOKEN', () => {
  it('on the public port: /metrics answers only to the bearer token', async () => {
    const { gateway, base } = await listening({ METRICS_TOKEN: TOKEN })
    try {
      for (const headers of [
        {},
        bearer('wrong-token-0000000000'),
        bearer(`${TOKEN}x`),
        { authorization: TOKEN },
      ]) {
        const response = await fetch(`${base}/metrics`, { headers })
        expect(response.status).toBe(403)
        expect(await response.json()).toEqual({ code: 403, msg: 'forbidden' })
      }
      const response = await fetch(`${base}/metrics`, { headers: bearer(TOKEN) })
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('gateway_http_requests_total')
      expect(gateway.logText()).not.toContain(TOKEN)
    } finally {
      await gateway.close()
    }
  })

  it('on the metrics port too', async () => {
    const port = await freePort()
    const { gateway } = await listening({ METRICS_PORT: port, METRICS_TOKEN: TOKEN })
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(403)
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { headers: bearer('nope') })).status).toBe(403)
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { headers: bearer(TOKEN) })).status).toBe(200)
    } finally {
      await gateway.close()
    }
  })

  it('without either setting /metrics stays open on the public port', async () => {
    const { gateway, base } = await listening()
    try {
      expect((await fetch(`${base}/metrics`)).status).toBe(200)
    } finally {
      await gateway.close()
    }
  })
})

describe('metrics settings', () => {
  it('reads METRICS_PORT and METRICS_TOKEN, off by default', () => {
    expect(loadConfig({})).toMatchObject({ METRICS_PORT: 0, METRICS_TOKEN: '' })
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN })).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_TOKEN: TOKEN,
    })
  })

  it.each([
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '8080', PORT: '8080' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '8080' }, 'METRICS_PORT'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(name)
  })
})
