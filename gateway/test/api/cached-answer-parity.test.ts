import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AddressInfo } from 'node:net'
import { CALLS } from '@tradegate/shared'
import type { GatewayConfig } from '../../src/config'
import {
  rawGet as get,
  startTestGateway,
  startUpstream,
  waitFor,
  type RawAnswer as Answer,
  type TestGateway,
  type TestUpstream,
} from '../helpers'

// A fresh hit of a cached call is answered two ways: by the front door ahead of Fastify
// (api/cached-fast-path.ts) and by the route inside Fastify. The same request to two gateways, one with
// the front door and one built without it, must come back alike in every header, its bytes, its log
// line, its metrics and what it takes from the rate limit. The front door is held to have answered
// (a spy counts its answers), so the comparison is of the two ways and not of one way twice.

const SETTINGS = CALLS.getAllSetting

interface Way {
  name: 'front door' | 'fastify'
  gateway: TestGateway
  url: string
  /** answers the front door gave itself since the way was started */
  frontAnswers(): number
}

async function startWay(
  name: Way['name'],
  upstream: TestUpstream,
  overrides: Partial<GatewayConfig> = {},
): Promise<Way> {
  const gateway = await startTestGateway(
    { UPSTREAM_URL: upstream.url, ...overrides },
    { cachedFrontDoor: name === 'front door' },
  )
  await gateway.app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`
  const spy = gateway.app.hasDecorator('frontDoor') ? vi.spyOn(gateway.app.frontDoor, 'answer') : undefined
  const frontAnswers = () => spy?.mock.results.filter((result) => result.value === true).length ?? 0
  return { name, gateway, url, frontAnswers }
}

/** Every exported sample of the gateway whose name starts with one of `prefixes`, by its whole line. */
async function samples(gateway: TestGateway, prefixes: string[]): Promise<Map<string, number>> {
  const text = (await gateway.app.inject({ url: '/metrics' })).body
  const found = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !prefixes.some((prefix) => line.startsWith(prefix))) continue
    // a finite bucket holds the time taken, which is not the same twice; the scrape counts itself
    if ((line.includes('_bucket{') && !line.includes('le="+Inf"')) || line.includes('route="/metrics"'))
      continue
    const space = line.lastIndexOf(' ')
    // the instance label differs between the two gateways; the rest of the series name is compared
    const series = line
      .slice(0, space)
      .replace(/,?\w*instance="[^"]*"/, '')
      .replace('{,', '{')
    found.set(series, Number(line.slice(space + 1)))
  }
  return found
}

/** What changed between two readings of the same samples: series and their increase, zero left out. */
function increases(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const changed: Record<string, number> = {}
  for (const [series, value] of after) {
    const grown = value - (before.get(series) ?? 0)
    // a duration sum grows by the time taken, which is not the same twice
    if (grown !== 0) changed[series] = series.includes('_sum') ? 1 : grown
  }
  return changed
}

const ANSWER_METRICS = [
  'gateway_http_requests_total',
  'gateway_http_request_duration_seconds',
  'gateway_cache_requests_total',
  'gateway_rejected_requests_total',
  'gateway_http_errors_total',
]
/** Headers that are not the same twice whichever way answers: the clock and the stored answer's age. */
const CLOCK_HEADERS = new Set(['date', 'age'])
const comparable = (headers: Answer['headers']) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !CLOCK_HEADERS.has(name)))

/** The request line the gateway wrote for `reqId`, without the time it took and the time it was written. */
async function lineOf(way: Way, reqId: string): Promise<Record<string, unknown>> {
  await waitFor(() => way.gateway.logs.some((line) => line.reqId === reqId), `${way.name}: line of ${reqId}`)
  const {
    time: _time,
    ms,
    instance: _instance,
    pid: _pid,
    ...line
  } = way.gateway.logs.find((candidate) => candidate.reqId === reqId)!
  expect(typeof ms).toBe('number')
  return line
}

describe('a fresh hit answered by the front door and by Fastify', () => {
  let upstream: TestUpstream
  let ways: Way[] = []
  beforeAll(async () => {
    upstream = await startUpstream()
    ways = [await startWay('front door', upstream), await startWay('fastify', upstream)]
  })
  afterAll(async () => {
    for (const way of ways) await way.gateway.close()
    await upstream?.close()
  })

  /** The same request to both ways after a miss has filled each cache: what each answered and recorded. */
  async function bothWays(path: string, headers: Record<string, string>, reqId: string) {
    return Promise.all(
      ways.map(async (way) => {
        const miss = await get(way.url + path, headers)
        expect([way.name, miss.headers['x-cache']]).toEqual([way.name, 'miss'])
        const fastBefore = way.frontAnswers()
        const before = await samples(way.gateway, ANSWER_METRICS)
        const hit = await get(way.url + path, { ...headers, 'x-request-id': reqId })
        const after = await samples(way.gateway, ANSWER_METRICS)
        return {
          way,
          hit,
          byFrontDoor: way.frontAnswers() - fastBefore,
          metrics: increases(before, after),
          line: await lineOf(way, reqId),
        }
      }),
    )
  }

  it('gives the same headers, bytes, log line and metrics', async () => {
    const [front, fastify] = await bothWays(SETTINGS.path, { language: 'en' }, 'parity-plain')
    expect([front!.byFrontDoor, fastify!.byFrontDoor]).toEqual([1, 0])
    expect(front!.hit.status).toBe(200)
    expect(front!.hit.headers['x-cache']).toBe('hit')
    expect(comparable(front!.hit.headers)).toEqual(comparable(fastify!.hit.headers))
    expect(front!.hit.body.equals(fastify!.hit.body)).toBe(true)
    expect(front!.line).toEqual(fastify!.line)
    expect(front!.line).toMatchObject({ msg: 'request', reqId: 'parity-plain', cache: 'hit', status: 200 })
    expect(front!.metrics).toEqual(fastify!.metrics)
    // one answer counted, timed and recorded as a cache hit: the same series move in both ways
    expect(Object.keys(front!.metrics).sort()).toEqual([
      expect.stringMatching(/^gateway_cache_requests_total\{.*result="hit"/),
      expect.stringMatching(/^gateway_http_request_duration_seconds_bucket\{.*le="\+Inf"/),
      expect.stringMatching(/^gateway_http_request_duration_seconds_count/),
      expect.stringMatching(/^gateway_http_request_duration_seconds_sum/),
      expect.stringMatching(/^gateway_http_requests_total\{.*status="200"/),
    ])
  })

  it('sends the same stored encoding with the same headers', async () => {
    // the settings (fresh for 30 s, so a busy machine's slow turn does not make the hit stale), in a
    // language of their own so the first request is a miss
    const headers = { language: 'en', lang: 'fr', 'accept-encoding': 'gzip, br' }
    const [front, fastify] = await bothWays(SETTINGS.path, headers, 'parity-br')
    expect([front!.byFrontDoor, fastify!.byFrontDoor]).toEqual([1, 0])
    expect(front!.hit.headers['content-encoding']).toBe('br')
    expect(comparable(front!.hit.headers)).toEqual(comparable(fastify!.hit.headers))
    expect(front!.line).toEqual(fastify!.line)
    expect(front!.metrics).toEqual(fastify!.metrics)
  })
})

describe('the rate limit, whichever way answers', () => {
  let upstream: TestUpstream
  let ways: Way[] = []
  beforeAll(async () => {
    upstream = await startUpstream()
    // counted in this process alone, so every verdict is made in the request's turn
    const limited = { REDIS_URL: '', RATE_LIMIT_PER_MINUTE: 3 }
    ways = [await startWay('front door', upstream, limited), await startWay('fastify', upstream, limited)]
  })
  afterAll(async () => {
    for (const way of ways) await way.gateway.close()
    await upstream?.close()
  })

  it('takes one request a hit and refuses the one past the budget alike', async () => {
    const outcomes = await Promise.all(
      ways.map(async (way) => {
        const before = await samples(way.gateway, ANSWER_METRICS)
        const answers: Answer[] = []
        for (let index = 0; index < 4; index++) answers.push(await get(way.url + SETTINGS.path))
        const after = await samples(way.gateway, ANSWER_METRICS)
        return { way, answers, byFrontDoor: way.frontAnswers(), metrics: increases(before, after) }
      }),
    )
    const [front, fastify] = outcomes
    // the miss goes through Fastify either way; the two hits by the front door where there is one
    expect([front!.byFrontDoor, fastify!.byFrontDoor]).toEqual([2, 0])
    for (const outcome of outcomes)
      expect([outcome.way.name, outcome.answers.map((answer) => answer.status)]).toEqual([
        outcome.way.name,
        [200, 200, 200, 429],
      ])
    const [frontRefusal, fastifyRefusal] = [front!.answers[3]!, fastify!.answers[3]!]
    // the request id is each gateway's own, and the seconds left are read a moment apart
    const ownOrTimed = ['x-request-id', 'retry-after', 'x-ratelimit-reset']
    const refusalHeaders = (answer: Answer) => {
      for (const name of ownOrTimed.slice(1)) expect(answer.headers[name]).toMatch(/^\d+$/)
      return Object.fromEntries(
        Object.entries(comparable(answer.headers)).filter(([name]) => !ownOrTimed.includes(name)),
      )
    }
    expect(refusalHeaders(frontRefusal)).toEqual(refusalHeaders(fastifyRefusal))
    expect(Object.keys(frontRefusal.headers).sort()).toEqual(Object.keys(fastifyRefusal.headers).sort())
    expect(frontRefusal.body.toString()).toBe(fastifyRefusal.body.toString())
    expect(front!.metrics).toEqual(fastify!.metrics)
    expect(Object.keys(front!.metrics)).toContainEqual(
      expect.stringMatching(/^gateway_rejected_requests_total\{.*reason="rate_limited"/),
    )
  })
})
