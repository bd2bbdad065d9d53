import { beforeEach, describe, expect, it } from 'vitest'
import type { InjectOptions } from 'fastify'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, useTestStack } from '../helpers'

// What every answer carries and what every request may hold: no-store on private answers, a CSP from
// configuration only, JSON for plain requests to the socket path, token, paging and query rules.

const stack = useTestStack({ REDIS_URL: '', ALLOWED_ORIGINS: 'https://trade.example, http://localhost:5173' })
beforeEach(async () => {
  await stack.upstream.resetCalls()
})
const inject = (request: InjectOptions) => stack.gateway.app.inject(request)

describe('caching headers', () => {
  it.each([
    ['a signed-in read', { url: CALLS.assetBalance.path, headers: { satoken: 'shape-test-session' } }],
    [
      'a sign-in',
      {
        method: 'POST' as const,
        url: CALLS.login.path,
        payload: { username: 'nobody', password: 'secret12' },
      },
    ],
    ['a refused private call', { url: `${CALLS.withdrawList.path}?pageSize=0` }],
  ])('marks %s Cache-Control: no-store', async (_kind, request) => {
    const response = await inject(request)
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('leaves a cached public read without no-store', async () => {
    const response = await inject({
      url: CALLS.getAllSetting.path,
      headers: { satoken: 'shape-test-session' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['x-cache']).toBeDefined()
    expect(response.headers['cache-control']).not.toBe('no-store')
  })
})

describe('content security policy', () => {
  it('builds connect-src from ALLOWED_ORIGINS and never from the Host header', async () => {
    const response = await inject({ url: '/', headers: { host: 'evil.example:8080' } })
    const csp = String(response.headers['content-security-policy'])
    expect(csp).toContain(
      "connect-src 'self' https://trade.example wss://trade.example http://localhost:5173 ws://localhost:5173",
    )
    expect(csp).not.toContain('evil')
  })

  it("is 'self' alone when no origins are configured", async () => {
    const plain = await startTestGateway({ UPSTREAM_URL: stack.upstream.url, REDIS_URL: '' })
    try {
      const response = await plain.app.inject({ url: '/', headers: { host: 'trade.example' } })
      expect(String(response.headers['content-security-policy'])).toMatch(/connect-src 'self'(;|$)/)
    } finally {
      await plain.close()
    }
  })
})

describe('the socket path without an upgrade', () => {
  it.each(['/ws/x', '/ws/abc?x=1', '/ws/'])('answers GET %s with a JSON 404', async (url) => {
    const response = await inject({ url })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ code: 404, msg: 'notFound' })
  })
})

describe('session tokens', () => {
  it.each([
    ['raw UTF-8', 'tok\u00c3\u00a9n-1234567'],
    ['a space', 'token 1234567'],
    ['a control character', 'token\u0007-1234567'],
    ['a quote', 'token"1234567'],
  ])('refuses a satoken with %s with 401 signInRequired and no upstream call', async (_kind, satoken) => {
    const response = await inject({ url: CALLS.assetBalance.path, headers: { satoken } })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ code: 401, msg: 'signInRequired', detail: 'headers.satoken' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('takes an empty satoken as no token on a call that needs none', async () => {
    const response = await inject({ url: CALLS.helpList.path, headers: { satoken: '' } })
    expect(response.statusCode).toBe(200)
  })

  it('passes a UUID, hex or JWT-shaped token on', async () => {
    for (const satoken of [
      '3f2b8c1e-9a4d-4c2e-8f1a-0b6d2e7c9a11',
      'a'.repeat(48),
      'eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl_-',
    ]) {
      const response = await inject({ url: CALLS.assetBalance.path, headers: { satoken } })
      expect(response.statusCode, satoken).toBe(200)
    }
  })
})

describe('paging bounds', () => {
  it.each([
    ['pageNum=0', 'query.pageNum'],
    ['pageNum=-1', 'query.pageNum'],
    ['pageSize=0', 'query.pageSize'],
    ['pageSize=101', 'query.pageSize'],
    ['pageSize=999999999', 'query.pageSize'],
  ])('refuses %s with 400', async (query, detail) => {
    const response = await inject({ url: `${CALLS.withdrawList.path}?${query}` })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it('takes pageNum=1 and pageSize=100', async () => {
    const response = await inject({ url: `${CALLS.withdrawList.path}?pageNum=1&pageSize=100` })
    expect(response.statusCode).toBe(200)
  })

  it('bounds a paged JSON body the same way', async () => {
    const response = await inject({
      method: 'POST',
      url: CALLS.secondOrderList.path,
      payload: { pageNum: 1, pageSize: 101 },
    })
    expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'body.pageSize' })
  })
})

describe('unknown query parameters', () => {
  it.each([
    [CALLS.getAllSetting.path, 'a cached call without a query'],
    [CALLS.assetBalance.path, 'a private call without a query'],
    [CALLS.loginOut.path, 'a POST without a query'],
  ])('are refused on %s (%s) like unknown body fields', async (path, _kind) => {
    const method = path === CALLS.loginOut.path ? 'POST' : 'GET'
    const response = await inject({ method, url: `${path}?debug=1` })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'query.debug' })
    expect(await stack.upstream.totalCalls()).toBe(0)
  })
})
