import { describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import type { FastifyInstance } from 'fastify'
import { configWith } from '../../src/config'
import { startTestGateway, uniquePrefix, useTestStack, waitFor } from '../helpers'

// Security headers, request ids, rate limits and load shedding, as a browser or operator sees them.

const stack = useTestStack({ REDIS_URL: '' })

describe('security headers', () => {
  it("sends a CSP allowing only this origin ('self', its sockets included)", async () => {
    const response = await stack.gateway.app.inject({ url: '/', headers: { host: 'trade.example:8080' } })
    const csp = String(response.headers['content-security-policy'])
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toMatch(/connect-src 'self'(;|$)/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toMatch(/\*|https:(?!\/)/)
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers).not.toHaveProperty('x-powered-by')
  })

  it('keeps API answers lean: nosniff and same-origin, no page headers or rate counters', async () => {
    const response = await stack.gateway.app.inject({ url: CALLS.getCoinList.path })
    expect(response.statusCode).toBe(200)
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin')
    expect(response.headers).not.toHaveProperty('content-security-policy')
    expect(response.headers).not.toHaveProperty('x-ratelimit-remaining')
  })

  it('never copies a malformed Host header into the CSP', async () => {
    const response = await stack.gateway.app.inject({ url: '/', headers: { host: 'evil; script-src *' } })
    const csp = String(response.headers['content-security-policy'])
    expect(csp).not.toContain('evil')
    expect(csp).toContain("connect-src 'self'")
  })
})

describe('request ids', () => {
  it('generates an id and returns it in x-request-id', async () => {
    const response = await stack.gateway.app.inject({ url: '/healthz' })
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('keeps a plain client id and replaces one that is not', async () => {
    const kept = await stack.gateway.app.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'client.id_42-A' },
    })
    expect(kept.headers['x-request-id']).toBe('client.id_42-A')
    for (const bad of ['has space', 'x'.repeat(65), 'a\u00e9b', 'a/b']) {
      const replaced = await stack.gateway.app.inject({ url: '/healthz', headers: { 'x-request-id': bad } })
      expect(replaced.headers['x-request-id']).not.toBe(bad)
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    }
  })
})

describe('rate limit', () => {
  it('answers 429 tooManyRequests past RATE_LIMIT_PER_MINUTE per IP, leaving probes alone', async () => {
    const limited = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      RATE_LIMIT_PER_MINUTE: 3,
    })
    try {
      const statuses: number[] = []
      for (let index = 0; index < 5; index++) {
        statuses.push((await limited.app.inject({ url: CALLS.getCoinList.path })).statusCode)
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      const refused = await limited.app.inject({ url: CALLS.getCoinList.path })
      expect(refused.json()).toEqual({ code: 429, msg: 'tooManyRequests' })
      expect(refused.headers['retry-after']).toBeDefined()
      const other = await limited.app.inject({ url: CALLS.getCoinList.path, remoteAddress: '10.0.0.9' })
      expect(other.statusCode).toBe(200)
      expect((await limited.app.inject({ url: '/healthz' })).statusCode).toBe(200)
      expect((await limited.app.inject({ url: '/metrics' })).body).toMatch(
        /gateway_rejected_requests_total\{reason="rate_limited"[^}]*\} 3/,
      )
    } finally {
      await limited.close()
    }
  })

  it('shares the count between instances through Redis', async () => {
    const prefix = uniquePrefix('rate')
    const first = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      RATE_LIMIT_PER_MINUTE: 2,
      REDIS_PREFIX: prefix,
    })
    const second = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      RATE_LIMIT_PER_MINUTE: 2,
      REDIS_PREFIX: prefix,
    })
    try {
      expect((await first.app.inject({ url: CALLS.getCoinList.path })).statusCode).toBe(200)
      expect((await second.app.inject({ url: CALLS.getCoinList.path })).statusCode).toBe(200)
      expect((await first.app.inject({ url: CALLS.getCoinList.path })).statusCode).toBe(429)
    } finally {
      await first.close()
      await second.close()
    }
  })

  it('uses the client address from X-Forwarded-For only when TRUST_PROXY says so', async () => {
    const trusting = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      RATE_LIMIT_PER_MINUTE: 1,
      TRUST_PROXY: '127.0.0.1',
    })
    try {
      const from = (address: string) =>
        trusting.app.inject({ url: CALLS.getCoinList.path, headers: { 'x-forwarded-for': address } })
      expect((await from('203.0.113.1')).statusCode).toBe(200)
      expect((await from('203.0.113.2')).statusCode).toBe(200)
      expect((await from('203.0.113.1')).statusCode).toBe(429)
    } finally {
      await trusting.close()
    }
    const untrusting = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      RATE_LIMIT_PER_MINUTE: 1,
    })
    try {
      const from = (address: string) =>
        untrusting.app.inject({ url: CALLS.getCoinList.path, headers: { 'x-forwarded-for': address } })
      expect((await from('203.0.113.1')).statusCode).toBe(200)
      expect((await from('203.0.113.2')).statusCode).toBe(429)
    } finally {
      await untrusting.close()
    }
  })
})

describe('load shedding', () => {
  /**
   * Stalls this process's event loop `stallMs` at a time until `app` sheds a request: the answer
   * once the gateway's own sampling has measured the lag. Between stalls the loop turns, so the
   * sampling timer runs.
   */
  async function stallUntilShed(app: FastifyInstance, stallMs: number) {
    let response = await app.inject({ url: CALLS.getCoinList.path })
    await waitFor(async () => {
      const blockedUntil = Date.now() + stallMs
      while (Date.now() < blockedUntil) {
        // keep the event loop busy so its measured delay passes the limit
      }
      response = await app.inject({ url: CALLS.getCoinList.path })
      return response.statusCode === 503
    }, 'the gateway to shed load')
    return response
  }

  it('is left out of test builds: a loop stalled past the default limit still gets answers', async () => {
    // a gateway shedding at the default limit, in this same process and loop, says when the stall counts
    const shedding = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      MAX_EVENT_LOOP_DELAY_MS: configWith({}).MAX_EVENT_LOOP_DELAY_MS,
    })
    const unshed = await startTestGateway({ UPSTREAM_URL: stack.upstream.url, REDIS_URL: '' })
    try {
      expect((await stallUntilShed(shedding.app, 1200)).statusCode).toBe(503)
      // the same lag, measured past the limit, and the test build answers
      expect((await unshed.app.inject({ url: CALLS.getCoinList.path })).statusCode).toBe(200)
    } finally {
      await unshed.close()
      await shedding.close()
    }
  })

  it('is off with MAX_EVENT_LOOP_DELAY_MS=0: a loop stalled past the default limit still gets answers', async () => {
    const shedding = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      MAX_EVENT_LOOP_DELAY_MS: configWith({}).MAX_EVENT_LOOP_DELAY_MS,
    })
    const off = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      MAX_EVENT_LOOP_DELAY_MS: 0,
    })
    try {
      expect((await stallUntilShed(shedding.app, 1200)).statusCode).toBe(503)
      expect((await off.app.inject({ url: CALLS.getCoinList.path })).statusCode).toBe(200)
    } finally {
      await off.close()
      await shedding.close()
    }
  })

  it('answers 503 with Retry-After while the event loop lags, keeping /healthz up', async () => {
    const pressured = await startTestGateway({
      UPSTREAM_URL: stack.upstream.url,
      REDIS_URL: '',
      MAX_EVENT_LOOP_DELAY_MS: 20,
    })
    try {
      const response = await stallUntilShed(pressured.app, 300)
      expect(response.statusCode).toBe(503)
      expect(response.json()).toEqual({ code: 503, msg: 'serviceUnavailable' })
      expect(response.headers['retry-after']).toBe('5')
      expect((await pressured.app.inject({ url: '/healthz' })).statusCode).toBe(200)
    } finally {
      await pressured.close()
    }
  })
})
