import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { KNOWN_LABELS } from '../../src/plugins/app/metrics'
import { startTestGateway, startUpstream, waitFor, type TestGateway, type TestUpstream } from '../helpers'

// What the alerts read: every counter exists at 0 from the start, and a 5xx says whose it is.

const sample = (text: string, name: string, labels: string): number | null => {
  const line = text.split('\n').find((row) => row.startsWith(`${name}{${labels}`))
  return line ? Number(line.split(' ').at(-1)) : null
}

describe('metric signals', () => {
  let upstream: TestUpstream
  let gateway: TestGateway
  const metrics = async () => (await gateway.app.inject({ url: '/metrics' })).body

  beforeAll(async () => {
    upstream = await startUpstream()
    gateway = await startTestGateway({ UPSTREAM_URL: upstream.url, REDIS_URL: '', UPSTREAM_TIMEOUT_MS: 1000 })
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('exports every counter at 0 for each of its known labels before anything happened', async () => {
    // a gateway of its own: the file's shared one has counted whatever the tests before this one did
    const fresh = await startTestGateway({ UPSTREAM_URL: upstream.url, REDIS_URL: '' })
    const text = await fresh.app
      .inject({ url: '/metrics' })
      .then((answer) => answer.body)
      .finally(() => fresh.close())
    const names = {
      upstreamErrors: 'gateway_upstream_errors_total',
      rejectedRequests: 'gateway_rejected_requests_total',
      wsDropped: 'gateway_ws_dropped_total',
      wsClosed: 'gateway_ws_closed_total',
      wsRefused: 'gateway_ws_refused_total',
      wsResyncs: 'gateway_ws_resyncs_total',
      busMessages: 'gateway_bus_messages_total',
    } as const
    for (const [key, labels] of Object.entries(KNOWN_LABELS) as Array<
      [keyof typeof names, Record<string, readonly string[]>]
    >) {
      for (const [label, values] of Object.entries(labels))
        for (const value of values) expect(sample(text, names[key], `${label}="${value}"`), value).toBe(0)
    }
    expect(sample(text, 'gateway_http_errors_total', 'source="gateway",status="502"')).toBe(0)
    expect(sample(text, 'gateway_upstream_up', '')).toBe(1)
  })

  it("tells the upstream's own 5xx, passed through, from the gateway's", async () => {
    await upstream.fail(1, 'error', CALLS.assetBalance.path)
    const passed = await gateway.app.inject({ url: CALLS.assetBalance.path })
    expect(passed.statusCode).toBe(500)
    const text = await metrics()
    expect(sample(text, 'gateway_http_errors_total', 'source="upstream",status="500"')).toBe(1)
    expect(sample(text, 'gateway_http_errors_total', 'source="gateway",status="500"')).toBe(0)
    expect(sample(text, 'gateway_upstream_errors_total', 'kind="server_error"')).toBe(1)

    // no answer in time: the 504 is the gateway's own
    await upstream.fail(1, 'hang', CALLS.assetBalance.path)
    const made = await gateway.app.inject({ url: CALLS.assetBalance.path })
    expect(made.statusCode).toBe(504)
    const after = await metrics()
    expect(sample(after, 'gateway_http_errors_total', 'source="gateway",status="504"')).toBe(1)
    expect(sample(after, 'gateway_http_errors_total', 'source="upstream",status="504"')).toBe(0)
  })

  it('counts each event-loop stall once in a histogram that every scraper reads whole', async () => {
    const aboveThreshold = (text: string) =>
      sample(text, 'gateway_event_loop_delay_seconds_bucket', 'le="+Inf"')! -
      sample(text, 'gateway_event_loop_delay_seconds_bucket', 'le="0.2"')!
    const before = aboveThreshold(await metrics())
    // a stall of 300 ms, over GatewayEventLoopDelay's 200 ms
    const until = performance.now() + 300
    while (performance.now() < until);
    // the timer records the stall when it next runs; then two Prometheus servers, one after the other,
    // each see it, as neither read resets anything
    let first = ''
    await waitFor(async () => aboveThreshold((first = await metrics())) >= before + 1, 'the stall recorded')
    const second = await metrics()
    expect(aboveThreshold(second)).toBeGreaterThanOrEqual(aboveThreshold(first))
    expect(sample(second, 'gateway_event_loop_delay_seconds_count', '')).toBeGreaterThanOrEqual(
      sample(first, 'gateway_event_loop_delay_seconds_count', '')!,
    )
  })

  it("leaves a health check's 503 out of the error counts, and counts a call's", async () => {
    const gone = await startUpstream()
    const url = gone.url
    await gone.close()
    const unready = await startTestGateway({ UPSTREAM_URL: url, REDIS_URL: '' })
    try {
      await waitFor(() => !unready.app.upstream.reachable, 'the upstream known down')
      for (let check = 0; check < 3; check++)
        expect((await unready.app.inject({ url: '/readyz' })).statusCode).toBe(503)
      expect((await unready.app.inject({ url: CALLS.assetBalance.path })).statusCode).toBe(503)
      const text = (await unready.app.inject({ url: '/metrics' })).body
      expect(sample(text, 'gateway_http_requests_total', 'route="/readyz",method="GET",status="503"')).toBe(3)
      expect(sample(text, 'gateway_http_errors_total', 'source="gateway",status="503"')).toBe(1)
    } finally {
      await unready.close()
    }
  })
})
