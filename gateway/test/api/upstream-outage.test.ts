import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { CALLS } from '@tradegate/shared'
import { startFaultProxy, type FaultProxy } from '../live/tcp-fault-proxy'
import { startTestGateway, startUpstream, waitFor, type TestGateway, type TestUpstream } from '../helpers'

// An upstream freeze as users meet it: requests keep arriving at a steady rate whatever the answers
// (open loop), the cached lists are older than every stale window, and the upstream accepts connections
// but answers nothing. The call timeout is 1 s, so a freeze of several seconds stands for a 75 s freeze
// at the default 15 s: the lists must be served throughout, and once the gateway knows the upstream is
// down no call may wait out its timeout.

const TIMEOUT_MS = 1000
/** one round of requests every this many ms, whether or not earlier ones were answered */
const SEND_EVERY_MS = 25
/** rounds sent after the gateway knew the upstream was down, before the freeze ends */
const ROUNDS_WHILE_DOWN = 120
/** past the longest stale window of the call table (content: 30 s fresh, 600 s stale) */
const PAST_STALE_WINDOWS_MS = 700_000

const LISTS = [
  CALLS.getCoinList.path,
  CALLS.symbolList.path,
  CALLS.getAllSetting.path,
  CALLS.helpList.path,
] as const
/** a public call no cache keeps */
const UNCACHED = { method: 'POST', url: CALLS.getCountryCode.path } as const

interface Sent {
  /** whether the gateway knew the upstream down when the request was sent */
  knownDown: boolean
  answer?: LightMyRequestResponse
}

let upstream: TestUpstream
let proxy: FaultProxy
let gateway: TestGateway

beforeAll(async () => {
  upstream = await startUpstream()
  const port = Number(new URL(upstream.url).port)
  proxy = await startFaultProxy({ targetHost: '127.0.0.1', targetPort: port })
  gateway = await startTestGateway({
    UPSTREAM_URL: `http://127.0.0.1:${proxy.port}`,
    REDIS_URL: '',
    UPSTREAM_TIMEOUT_MS: TIMEOUT_MS,
    UPSTREAM_GET_RETRIES: 0,
    // the test's clock stands still past the stale windows, and so would a per-minute budget
    RATE_LIMIT_PER_MINUTE: 1_000_000,
  })
})
afterAll(async () => {
  vi.useRealTimers()
  await gateway?.close()
  await proxy?.close()
  await upstream?.close()
})

const upstreamUpMetric = async () =>
  (await gateway.app.inject({ url: '/metrics' })).body.match(/^gateway_upstream_up\{[^}]*\} (\d)/m)?.[1]

describe('an upstream freeze under a steady request rate', () => {
  it('serves the lists stale and answers uncached calls at once with 503 once the upstream is known down', async () => {
    await waitFor(() => gateway.app.upstream.reachable, 'the first probe answered', 30_000)
    for (const url of LISTS) expect((await gateway.app.inject({ url })).statusCode).toBe(200)
    expect((await gateway.app.inject(UNCACHED)).statusCode).toBe(200)

    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + PAST_STALE_WINDOWS_MS)
    proxy.blackhole(true)

    const lists: Array<Promise<LightMyRequestResponse>> = []
    const uncached: Sent[] = []
    let roundsWhileDown = 0
    const sendRound = () => {
      for (const url of LISTS) lists.push(gateway.app.inject({ url }))
      const sent: Sent = { knownDown: !gateway.app.upstream.reachable }
      if (sent.knownDown) roundsWhileDown++
      void gateway.app.inject(UNCACHED).then((answer) => (sent.answer = answer))
      uncached.push(sent)
    }
    const sender = setInterval(sendRound, SEND_EVERY_MS)
    try {
      await waitFor(() => roundsWhileDown >= ROUNDS_WHILE_DOWN, 'rounds after the outage was known', 120_000)
      expect(await upstreamUpMetric()).toBe('0')
    } finally {
      clearInterval(sender)
      proxy.blackhole(false)
    }
    await waitFor(() => uncached.every((sent) => sent.answer !== undefined), 'every call answered', 60_000)

    // every list request was served, whatever the upstream did
    const listAnswers = await Promise.all(lists)
    expect(listAnswers.length).toBeGreaterThanOrEqual(4 * ROUNDS_WHILE_DOWN)
    expect(listAnswers.filter((answer) => answer.statusCode !== 200)).toEqual([])
    expect(new Set(listAnswers.map((answer) => answer.headers['x-cache']))).toEqual(new Set(['stale']))

    // once the outage was known, no uncached call waited for the upstream: had one been sent, the
    // freeze (longer than its timeout) would have answered it 504
    const whileDown = uncached.filter((sent) => sent.knownDown)
    expect(whileDown.length).toBeGreaterThanOrEqual(ROUNDS_WHILE_DOWN)
    for (const { answer } of whileDown) {
      expect(answer!.statusCode).toBe(503)
      expect(answer!.headers['retry-after']).toBe('5')
      expect(answer!.json()).toEqual({ code: 503, msg: 'upstreamUnavailable' })
    }
    // only calls sent before the gateway knew waited: every one of them before the first refused one
    const firstRefused = uncached.findIndex((sent) => sent.knownDown)
    const waited = uncached.flatMap((sent, index) => (sent.answer!.statusCode === 504 ? [index] : []))
    expect(waited.length).toBeGreaterThan(0)
    expect(Math.max(...waited)).toBeLessThan(firstRefused)

    // the probe finds the upstream again and calls go through
    await waitFor(() => gateway.app.upstream.reachable, 'the probe to find the upstream', 30_000)
    expect(await upstreamUpMetric()).toBe('1')
    expect((await gateway.app.inject(UNCACHED)).statusCode).toBe(200)
  }, 180_000)
})
