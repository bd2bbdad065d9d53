import { request } from 'node:http'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { useTestStack } from '../helpers'
import { startUpload, uploadBody } from '../api/raw-upload'
import { configWith } from '../../src/config'
import { loggerOptions, redactUrl } from '../../src/plugins/app/logger'

// What operators read: one JSON line per request with the fields they need, and no secrets in it.

const TOKEN = 'satoken-7f3a9c1e5b'
const PASSWORD = 'hunter2-password-91'
const CODE = '482913'

const stack = useTestStack({ REDIS_URL: '', INSTANCE_ID: 'gw-test-1' })

describe('request log', () => {
  it('writes one line per request with route, status, latency, upstream and cache fields', async () => {
    const before = stack.gateway.logs.length
    await stack.gateway.app.inject({
      url: CALLS.getCoinList.path,
      // a language of its own: the gateway reads the coin list under the default one at start
      headers: { 'x-request-id': 'trace-abc-1', language: 'th' },
    })
    const lines = stack.gateway.logs.slice(before).filter((line) => line.msg === 'request')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      reqId: 'trace-abc-1',
      instance: 'gw-test-1',
      route: CALLS.getCoinList.path,
      method: 'GET',
      status: 200,
      upstreamStatus: 200,
      cache: 'miss',
    })
    expect(lines[0]?.ms).toEqual(expect.any(Number))
    expect(lines[0]?.upstreamMs).toEqual(expect.any(Number))
  })

  it('counts every answer in the HTTP metrics by route, method and status', async () => {
    await stack.gateway.app.inject({ url: CALLS.getCoinList.path })
    await stack.gateway.app.inject({ url: '/api/missing' })
    const metrics = (await stack.gateway.app.inject({ url: '/metrics' })).body
    expect(metrics).toMatch(
      /gateway_http_requests_total\{route="\/api\/common\/getCoinList",method="GET",status="200"[^}]*\} [1-9]/,
    )
    expect(metrics).toMatch(
      /gateway_http_requests_total\{route="unmatched",method="GET",status="404"[^}]*\} [1-9]/,
    )
    expect(metrics).toMatch(
      /gateway_http_request_duration_seconds_count\{[^}]*route="\/api\/common\/getCoinList"/,
    )
    expect(metrics).toMatch(
      /gateway_upstream_request_duration_seconds_count\{[^}]*route="\/api\/common\/getCoinList"/,
    )
  })

  it('keeps probes out of the request log', async () => {
    const before = stack.gateway.logs.length
    await stack.gateway.app.inject({ url: '/healthz' })
    await stack.gateway.app.inject({ url: '/readyz' })
    expect(stack.gateway.logs.slice(before).filter((line) => line.msg === 'request')).toHaveLength(0)
  })

  it('never writes a session token, password or code, whatever the outcome', async () => {
    const headers = { satoken: TOKEN, cookie: `session=${TOKEN}` }
    await stack.gateway.app.inject({
      method: 'POST',
      url: CALLS.login.path,
      headers,
      payload: { username: 'alice', password: PASSWORD, code: CODE },
    })
    await stack.gateway.app.inject({
      method: 'POST',
      url: `${CALLS.tardPwdSet.path}?pwd=${PASSWORD}&code=${CODE}`,
      headers,
    })
    await stack.gateway.app.inject({
      method: 'POST',
      url: `${CALLS.backPwd.path}?email=a%40b.co&newPwd=${PASSWORD}&emailCode=${CODE}`,
      headers,
    })
    await stack.gateway.app.inject({
      method: 'POST',
      url: `${CALLS.bindPhone.path}?phone=123&code=${CODE}中`,
      headers,
    })
    await stack.gateway.app.inject({
      method: 'POST',
      url: `${CALLS.unBindPhone.path}?code=${CODE}&c=%ZZ`,
      headers,
    })
    await stack.gateway.app.inject({
      method: 'POST',
      url: CALLS.login.path,
      headers,
      payload: `{"password":"${PASSWORD}"`,
    })
    await stack.upstream.fail(1, 'error', CALLS.tardPwdSet.path)
    await stack.gateway.app.inject({
      method: 'POST',
      url: `${CALLS.tardPwdSet.path}?pwd=${PASSWORD}&code=${CODE}`,
      headers,
    })

    const text = stack.gateway.logText()
    expect(text).toContain('tardPwdSet?pwd=[redacted]')
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(CODE)
  })
})

describe('requests whose client leaves before the answer', () => {
  const served = useTestStack({ REDIS_URL: '', INSTANCE_ID: 'gw-test-2' }, { listen: true })
  /** the request lines and 499 count of one route */
  const linesOf = (route: string) =>
    served.gateway.logs.filter((line) => line.msg === 'request' && line.route === route)
  const closedCount = async (route: string) => {
    const metrics = (await served.gateway.app.inject({ url: '/metrics' })).body
    const pattern = new RegExp(
      `gateway_http_requests_total\\{route="${route}",method="[A-Z]+",status="499"[^}]*\\} (\\d+)`,
    )
    return Number(pattern.exec(metrics)?.[1] ?? 0)
  }

  it('logs and counts a call left while the upstream is slow as 499, once', async () => {
    const route = CALLS.getInfo.path
    const token = await served.upstream.register(`left${Date.now().toString(36)}`)
    await served.upstream.resetCalls()
    await served.upstream.fail(1, 'hang', route)
    const outgoing = request(`http://127.0.0.1:${served.port}${route}`, { headers: { satoken: token } })
    outgoing.on('error', () => undefined)
    outgoing.end()
    // the client leaves once the call is with the upstream
    await expect.poll(() => served.upstream.totalCalls()).toBe(1)
    outgoing.destroy()
    await expect.poll(() => linesOf(route).length).toBe(1)
    expect(linesOf(route)[0]).toMatchObject({ status: 499, method: 'GET', instance: 'gw-test-2' })
    expect(await closedCount(route)).toBe(1)
    // no 5xx is counted for it: the client left, the gateway did not fail
    const metrics = (await served.gateway.app.inject({ url: '/metrics' })).body
    expect(metrics).not.toMatch(/gateway_http_errors_total\{[^}]*\} [1-9]/)
  })

  it('logs and counts an upload given up part way as 499', async () => {
    const route = CALLS.uploadOSS.path
    const token = await served.upstream.register(`gave${Date.now().toString(36)}`)
    const upload = startUpload({
      port: served.port,
      chunked: true,
      body: uploadBody(1024 * 1024),
      token,
      holdAt: 256 * 1024,
    })
    const stored = await served.upstream.storedUploads()
    await served.upstream.resetCalls()
    await expect.poll(upload.sent).toBe(256 * 1024)
    // the file is on its way to the upstream when its sender gives up
    await expect.poll(() => served.upstream.totalCalls()).toBe(1)
    upload.socket.destroy()
    await expect.poll(() => linesOf(route).length).toBe(1)
    expect(linesOf(route)[0]).toMatchObject({ status: 499, method: 'POST' })
    expect(await closedCount(route)).toBe(1)
    // its request upstream was abandoned unfinished: no part of a file is kept as if whole
    await expect.poll(() => served.gateway.app.uploadSlots.uploadsInFlight).toBe(0)
    expect(await served.upstream.storedUploads()).toBe(stored)
  })
})

describe('redactUrl', () => {
  it.each([
    ['/a?pwd=x&keep=1', '/a?pwd=[redacted]&keep=1'],
    ['/a?oldPwd=x&newPwd=y', '/a?oldPwd=[redacted]&newPwd=[redacted]'],
    ['/a?emailCode=1&email=a%40b', '/a?emailCode=[redacted]&email=[redacted]'],
    ['/a?address=T9yD&type=trc', '/a?address=[redacted]&type=trc'],
    ['/a?sa%74oken=x', '/a?sa%74oken=[redacted]'],
    ['/a?symbol=btc', '/a?symbol=btc'],
    ['/a', '/a'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected)
  })
})

describe('log redaction', () => {
  it('hides secrets in a logged query or body, and leaves other fields of the same name alone', async () => {
    let text = ''
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString()
        done()
      },
    })
    const app = Fastify({ logger: loggerOptions(configWith({ LOG_LEVEL: 'info' }), stream) })
    try {
      app.log.info({
        event: 'socket_closed',
        code: 4401,
        query: { emailCode: CODE, symbol: 'btcusdt' },
        body: { password: PASSWORD, code: CODE, phone: '5550100' },
      })
      const line = JSON.parse(text) as Record<string, unknown>
      expect(line.code).toBe(4401)
      expect(line.query).toEqual({ emailCode: '[redacted]', symbol: 'btcusdt' })
      expect(line.body).toEqual({ password: '[redacted]', code: '[redacted]', phone: '[redacted]' })
      expect(text).not.toContain(PASSWORD)
      expect(text).not.toContain(CODE)
    } finally {
      await app.close()
    }
  })
})
