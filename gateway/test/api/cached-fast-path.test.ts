import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'
import { BUNDLE_LANGUAGES, CALLS } from '@tradegate/shared'
import { trustProxyOption } from '../../src/config'
import { clientAddressFor } from '../../src/lib/request-id'
import {
  rawGet as get,
  startTestGateway,
  startUpstream,
  useTestStack,
  waitFor,
  type TestGateway,
  type TestUpstream,
} from '../helpers'

// The cached-GET fast path answers fresh hits ahead of Fastify over a real connection (inject never
// reaches it): the same headers and bytes as the route, the same metrics and log line, the rate limit
// taken once, and every request it does not answer in full left to the route's own checks.

const SETTINGS = CALLS.getAllSetting

let run = 0
/** language headers of their own per test, so each starts with an empty cache key (keys hold the 16 languages) */
let languages = { language: 'en', lang: '' }

async function listen(gateway: TestGateway): Promise<string> {
  await gateway.app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`
}

/** Spies on the front door: how many requests it answered itself. */
function countFastAnswers(gateway: TestGateway): () => number {
  const spy = vi.spyOn(gateway.app.frontDoor, 'answer')
  return () => spy.mock.results.filter((result) => result.value === true).length
}

const metricValue = async (gateway: TestGateway, pattern: RegExp): Promise<number> => {
  const text = (await gateway.app.inject({ url: '/metrics' })).body
  const line = text.split('\n').find((candidate) => pattern.test(candidate))
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0
}

const IGNORED = new Set(['date', 'x-request-id', 'age', 'x-cache', 'connection', 'keep-alive'])
const headersOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !IGNORED.has(name.toLowerCase())))

describe('cached GET fast path', () => {
  const stack = useTestStack()
  let url = ''
  beforeAll(async () => {
    url = await listen(stack.gateway)
  })
  beforeEach(() => {
    languages = { language: 'en', lang: BUNDLE_LANGUAGES[++run % BUNDLE_LANGUAGES.length]! }
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('answers a fresh hit itself, with the headers and bytes the route gives', async () => {
    const fast = countFastAnswers(stack.gateway)
    const headers = { ...languages }
    const miss = await get(url + SETTINGS.path, headers)
    expect(miss.headers['x-cache']).toBe('miss')
    const viaRoute = await stack.gateway.app.inject({ url: SETTINGS.path, headers })
    const hit = await get(url + SETTINGS.path, { ...headers, 'x-request-id': 'client-id-1' })
    expect(fast()).toBe(1)
    expect(hit.status).toBe(200)
    expect(hit.headers['x-cache']).toBe('hit')
    expect(hit.headers['x-request-id']).toBe('client-id-1')
    expect(Number(hit.headers.age)).toBeGreaterThanOrEqual(0)
    expect(hit.body.equals(viaRoute.rawPayload)).toBe(true)
    expect(headersOf(hit.headers)).toEqual(headersOf(viaRoute.headers))
  })

  it('sends the stored encoding the client accepts, as the route does', async () => {
    const fast = countFastAnswers(stack.gateway)
    // the settings, fresh for 30 s: the coin list's 2 s can run out between two requests on a busy machine
    const headers = { ...languages, 'accept-encoding': 'gzip, br' }
    await get(url + SETTINGS.path, headers)
    const viaRoute = await stack.gateway.app.inject({ url: SETTINGS.path, headers })
    const raw = await get(url + SETTINGS.path, headers)
    expect(fast()).toBe(1)
    expect(raw.headers['content-encoding']).toBe('br')
    expect(headersOf(raw.headers)).toEqual(headersOf(viaRoute.headers))
    expect(raw.headers.vary).toBe('accept-encoding')
    expect(raw.body.equals(viaRoute.rawPayload)).toBe(true)
  })

  it('counts its answers in the request, duration and cache metrics and writes the request line', async () => {
    const route = `route="${SETTINGS.path}"`
    const requests = new RegExp(
      `^gateway_http_requests_total\\{[^}]*${route}[^}]*method="GET"[^}]*status="200"`,
    )
    const durations = new RegExp(`^gateway_http_request_duration_seconds_count\\{[^}]*${route}`)
    const hits = new RegExp(`^gateway_cache_requests_total\\{[^}]*${route}[^}]*result="hit"`)
    await get(url + SETTINGS.path, { ...languages })
    const before = await Promise.all([requests, durations, hits].map((p) => metricValue(stack.gateway, p)))
    const fast = countFastAnswers(stack.gateway)
    for (let index = 0; index < 3; index++)
      await get(url + SETTINGS.path, { ...languages, 'x-request-id': `line-${languages.lang}-${index}` })
    expect(fast()).toBe(3)
    const after = await Promise.all([requests, durations, hits].map((p) => metricValue(stack.gateway, p)))
    expect(after.map((value, index) => value - before[index]!)).toEqual([3, 3, 3])
    await waitFor(
      () => stack.gateway.logs.some((line) => line.reqId === `line-${languages.lang}-2`),
      'the request line of a fast answer',
    )
    const line = stack.gateway.logs.find((candidate) => candidate.reqId === `line-${languages.lang}-2`)!
    expect(line).toMatchObject({
      msg: 'request',
      route: SETTINGS.path,
      method: 'GET',
      status: 200,
      cache: 'hit',
    })
    expect(typeof line.ms).toBe('number')
  })

  it('leaves to the route what it refuses: a query, a body, a bad header, the Chinese rule', async () => {
    await get(url + SETTINGS.path, { ...languages })
    const fast = countFastAnswers(stack.gateway)
    const cases: Array<[string, Record<string, string>, string | undefined, number, string]> = [
      [`${SETTINGS.path}?x=1`, { ...languages }, undefined, 400, 'badRequest'],
      [`${SETTINGS.path}?q=%E4%B8%AD`, { ...languages }, undefined, 400, 'cannotInputChinese'],
      [SETTINGS.path, { language: 'bad value!' }, undefined, 400, 'badRequest'],
      [SETTINGS.path, { ...languages, satoken: 'short' }, undefined, 401, 'signInRequired'],
      [
        SETTINGS.path,
        { ...languages, 'content-type': 'application/json', 'content-length': '2' },
        '{}',
        400,
        'badRequest',
      ],
    ]
    for (const [path, headers, body, status, msg] of cases) {
      const answer = await get(url + path, headers, body)
      expect([path, headers, answer.status]).toEqual([path, headers, status])
      expect(JSON.parse(answer.body.toString())).toMatchObject({ msg })
    }
    expect(fast()).toBe(0)
  })

  it('leaves a stale answer to the route, which serves it and refreshes it', async () => {
    await get(url + SETTINGS.path, { ...languages })
    const fast = countFastAnswers(stack.gateway)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + SETTINGS.cache.freshMs + 1000)
      const stale = await get(url + SETTINGS.path, { ...languages })
      expect(stale.status).toBe(200)
      expect(stale.headers['x-cache']).toBe('stale')
    } finally {
      vi.useRealTimers()
    }
    expect(fast()).toBe(0)
  })

  it('leaves answers to the route while the gateway drains, which closes each connection', async () => {
    await get(url + SETTINGS.path, { ...languages })
    const fast = countFastAnswers(stack.gateway)
    stack.gateway.app.readiness.draining = true
    try {
      const response = await get(url + SETTINGS.path, { ...languages })
      expect(response.headers['x-cache']).toBe('hit')
      expect(response.headers.connection).toBe('close')
    } finally {
      stack.gateway.app.readiness.draining = false
    }
    expect(fast()).toBe(0)
  })
})

describe('cached GET fast path and the rate limit', () => {
  let upstream: TestUpstream
  let gateway: TestGateway
  let url = ''
  beforeAll(async () => {
    upstream = await startUpstream()
    // counted in this process alone, so every verdict is made in the request's turn
    gateway = await startTestGateway({ UPSTREAM_URL: upstream.url, REDIS_URL: '', RATE_LIMIT_PER_MINUTE: 3 })
    url = await listen(gateway)
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('takes one request from the budget per answer and leaves the refusal to the route', async () => {
    const fast = countFastAnswers(gateway)
    const statuses: number[] = []
    for (let index = 0; index < 4; index++) {
      const response = await get(url + SETTINGS.path)
      statuses.push(response.status)
      if (response.status === 429) expect(response.headers['retry-after']).toMatch(/^\d+$/)
    }
    // the first is the miss (the route), the next two fast hits, the fourth refused by the route
    expect(statuses).toEqual([200, 200, 200, 429])
    expect(fast()).toBe(2)
    expect(await metricValue(gateway, /^gateway_rejected_requests_total\{[^}]*reason="rate_limited"/)).toBe(1)
  })
})

describe('the fast path client address', () => {
  it('is the address Fastify gives request.ip, for every TRUST_PROXY form', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.7, 10.0.0.2' }
    for (const setting of ['false', 'true', '1', '2', '127.0.0.1', '127.0.0.1, 10.0.0.0/8', 'loopback']) {
      const trustProxy = trustProxyOption(setting)
      const app = Fastify({ trustProxy })
      const addressOf = clientAddressFor(trustProxy)
      app.get('/', (request) => ({ fastify: request.ip, ours: addressOf(request.raw) }))
      const answer = (await app.inject({ url: '/', headers: forwarded })).json<Record<string, string>>()
      expect([setting, answer.ours]).toEqual([setting, answer.fastify])
      await app.close()
    }
  })
})
