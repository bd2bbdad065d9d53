import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, startUpstream, waitFor, type TestGateway, type TestUpstream } from '../helpers'
import { startEchoUpstream, type EchoUpstream } from '../support/echo-upstream'

// Proxy behaviour: which headers travel, timeouts, bounded GET retries, never a retried POST.

describe('forwarded headers', () => {
  // a bare upstream that records what reached it, to see exactly which headers the gateway sent
  let echo: EchoUpstream
  let gateway: TestGateway
  const seen = () => echo.requests.map((request) => request.headers)

  beforeAll(async () => {
    echo = await startEchoUpstream({
      connection: 'keep-alive, x-upstream-private',
      'x-upstream-private': 'hop',
      'x-upstream-visible': 'kept',
    })
    gateway = await startTestGateway({ UPSTREAM_URL: echo.url, REDIS_URL: '' })
  })
  afterAll(async () => {
    await gateway?.close()
    await echo?.close()
  })
  beforeEach(() => echo.clear())

  it('passes satoken, language and lang, and strips hop-by-hop and unknown headers', async () => {
    const response = await gateway.app.inject({
      url: CALLS.assetBalance.path,
      headers: {
        satoken: 'session-token-123',
        language: 'en',
        lang: 'en',
        cookie: 'a=b',
        'proxy-authorization': 'Basic abc',
        te: 'trailers',
        connection: 'keep-alive, x-private',
        'x-private': 'secret',
        'x-request-id': 'client-req-1',
      },
    })
    expect(response.statusCode).toBe(200)
    const [headers] = seen()
    expect(headers).toMatchObject({ satoken: 'session-token-123', language: 'en', lang: 'en' })
    expect(headers?.['x-request-id']).toBe('client-req-1')
    for (const name of ['cookie', 'proxy-authorization', 'te', 'x-private'])
      expect(headers).not.toHaveProperty(name)
    expect(response.headers).not.toHaveProperty('x-upstream-private')
    expect(response.headers['x-upstream-visible']).toBe('kept')
  })

  it('sends a shared, cached call without the session token', async () => {
    await gateway.app.inject({
      url: CALLS.getCoinList.path,
      headers: { satoken: 'session-token-123', language: 'de' },
    })
    expect(seen()[0]).not.toHaveProperty('satoken')
    expect(seen()[0]?.language).toBe('de')
  })

  it('re-sends the checked JSON body with its content type', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: CALLS.login.path,
      payload: { username: 'abc', password: 'secret12' },
    })
    expect(response.statusCode).toBe(200)
    expect(seen()[0]?.['content-type']).toBe('application/json')
    expect(seen()[0]?.['content-length']).toBe(
      String(JSON.stringify({ username: 'abc', password: 'secret12' }).length),
    )
  })
})

describe('upstream given with a ws scheme', () => {
  it('proxies REST calls over http to the same host', async () => {
    const upstream = await startUpstream()
    const gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url.replace(/^http/, 'ws'),
      REDIS_URL: '',
    })
    try {
      const response = await gateway.app.inject({ url: CALLS.getCoinList.path })
      expect(response.statusCode).toBe(200)
      expect(response.json().code).toBe(200)
    } finally {
      await gateway.close()
      await upstream.close()
    }
  })
})

describe('upstream failures', () => {
  let upstream: TestUpstream
  let gateway: TestGateway
  const RESPONSE_TIMEOUT_MS = 400
  const RETRIES = 2

  beforeAll(async () => {
    upstream = await startUpstream()
    gateway = await startTestGateway({
      UPSTREAM_URL: upstream.url,
      REDIS_URL: '',
      UPSTREAM_TIMEOUT_MS: RESPONSE_TIMEOUT_MS,
      UPSTREAM_GET_RETRIES: RETRIES,
    })
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })
  beforeEach(async () => {
    await upstream.resetCalls()
  })

  it('answers a hanging upstream with 504 once the timeout passes, after one upstream hit', async () => {
    await upstream.fail(1, 'hang', CALLS.assetBalance.path)
    const started = Date.now()
    const response = await gateway.app.inject({ url: CALLS.assetBalance.path })
    const elapsed = Date.now() - started
    // the upstream never answers, so any answer at all is the gateway's own timeout; a busy machine
    // can only make it later, never earlier
    expect(response.statusCode).toBe(504)
    expect(response.json()).toEqual({ code: 504, msg: 'upstreamTimeout' })
    expect(elapsed).toBeGreaterThanOrEqual(RESPONSE_TIMEOUT_MS - 50)
    expect(await upstream.calls()).toEqual({ [CALLS.assetBalance.path]: 1 })
  })

  it('retries a GET on 503 at most UPSTREAM_GET_RETRIES times', async () => {
    await upstream.fail(10, 'status503', CALLS.assetBalance.path)
    const response = await gateway.app.inject({ url: CALLS.assetBalance.path })
    expect(response.statusCode).toBe(503)
    expect(await upstream.calls()).toEqual({ [CALLS.assetBalance.path]: RETRIES + 1 })
    await upstream.resetCalls()
    // the remaining armed failures are spent so later tests see a healthy upstream
    await gateway.app.inject({ url: CALLS.assetBalance.path })
    await gateway.app.inject({ url: CALLS.assetBalance.path })
    await gateway.app.inject({ url: CALLS.assetBalance.path })
  })

  it('passes an upstream 500 through without retrying it', async () => {
    await upstream.fail(1, 'error', CALLS.assetBalance.path)
    const response = await gateway.app.inject({ url: CALLS.assetBalance.path })
    expect(response.statusCode).toBe(500)
    expect(await upstream.calls()).toEqual({ [CALLS.assetBalance.path]: 1 })
  })

  it.each(['status503', 'error', 'hang'] as const)('never retries a POST (%s)', async (mode) => {
    await upstream.fail(1, mode, CALLS.transferFunds.path)
    const response = await gateway.app.inject({
      method: 'POST',
      url: CALLS.transferFunds.path,
      payload: { coin: 'usdt', from: 'platform', to: 'contract', amount: '1' },
    })
    expect([500, 503, 504]).toContain(response.statusCode)
    expect(await upstream.calls()).toEqual({ [CALLS.transferFunds.path]: 1 })
  })

  it('answers 503 at once when nothing listens upstream, without trying again, and readiness says why', async () => {
    const dead = await startUpstream()
    const url = dead.url
    await dead.close()
    // timeouts far past the test's own: the answer can only come from the refused connections
    const orphan = await startTestGateway({
      UPSTREAM_URL: url,
      REDIS_URL: '',
      UPSTREAM_GET_RETRIES: 1,
      UPSTREAM_CONNECT_TIMEOUT_MS: 600_000,
      UPSTREAM_TIMEOUT_MS: 600_000,
    })
    // the coin-list read and the probe at start found nothing listening, so the upstream is known down
    const connectFailures = async () =>
      Number(
        (await orphan.app.inject({ url: '/metrics' })).body.match(
          /gateway_upstream_errors_total\{kind="connect"[^}]*\} (\d+)/,
        )?.[1] ?? 0,
      )
    try {
      await waitFor(() => !orphan.app.upstream.reachable, 'the upstream known down')
      const before = await connectFailures()
      const response = await orphan.app.inject({ url: CALLS.assetBalance.path })
      expect(response.statusCode).toBe(503)
      expect(response.headers['retry-after']).toBe('5')
      expect(response.json()).toEqual({ code: 503, msg: 'upstreamUnavailable' })
      const ready = await orphan.app.inject({ url: '/readyz' })
      expect(ready.statusCode).toBe(503)
      expect(ready.json().reasons).toContain('upstream: upstream unreachable')
      // refused without a connection attempt
      expect(await connectFailures()).toBe(before)
    } finally {
      await orphan.close()
    }
  })
})
