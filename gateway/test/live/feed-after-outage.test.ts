import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, waitFor, type TestGateway } from '../helpers'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { startFaultProxy, type FaultProxy } from './tcp-fault-proxy'

// After an upstream outage the market data comes back when the upstream does, not when the feed's
// back-off next allows: its tries grow to 10 s apart while the upstream is down, and the REST path's
// probe (every second while down) is what learns first that it answers again.

type Line = Record<string, unknown>

let upstream: SandboxUpstream
let proxy: FaultProxy
let gateway: TestGateway

beforeAll(async () => {
  upstream = await startSandboxUpstream(50)
  proxy = await startFaultProxy({ targetHost: '127.0.0.1', targetPort: Number(new URL(upstream.url).port) })
  gateway = await startTestGateway({
    UPSTREAM_URL: `http://127.0.0.1:${proxy.port}`,
    FEED_TOKEN,
    REDIS_URL: '',
    FEED_SILENCE_MS: 600,
    UPSTREAM_CONNECT_TIMEOUT_MS: 500,
  })
})
afterAll(async () => {
  proxy?.blackhole(false)
  await gateway?.close()
  await proxy?.close()
  await upstream?.close()
})

const events = (name: string): Line[] => gateway.logs.filter((line) => line.event === name)

describe('the feed after an upstream freeze', () => {
  it('tries again as soon as the upstream answers, not at its next back-off try', async () => {
    await waitFor(() => events('feed_connected').length === 1, 'the feed connected')
    proxy.blackhole(true)
    // the REST path knows the upstream down, and the feed waits a long back-off for its next try
    await waitFor(
      () =>
        !gateway.app.upstream.reachable &&
        events('feed_connect_failed').some((line) => (line.retryInMs as number) >= 6000),
      'the upstream known down and a feed try 6 s or more away',
      90_000,
    )
    // the outage ends just after a failed try, with that try's whole back-off still ahead: ended
    // seconds after it (a busy machine may notice the condition above late), the back-off's own try
    // could come before the upstream's answer is known, which is not what this test is about
    const seen = events('feed_connect_failed').length
    await waitFor(
      () =>
        events('feed_connect_failed')
          .slice(seen)
          .some((line) => (line.retryInMs as number) >= 6000),
      'a fresh failed try with 6 s or more to its next',
      90_000,
    )
    const failedBefore = events('feed_connect_failed').length
    const lastFailed = events('feed_connect_failed').at(-1)!
    proxy.blackhole(false)
    proxy.resetAll()

    await waitFor(() => events('feed_regained').length === 1, 'the feed regained', 30_000)
    const [retried] = events('feed_retry_now')
    expect(retried).toMatchObject({ reason: 'upstream_up' })
    // the try that regained the feed is the one the upstream's answer started: no attempt failed
    // after the outage ended, and it came before the back-off's own time for it
    const failedAfter = events('feed_connect_failed').slice(failedBefore)
    expect(failedAfter.every((line) => (line.time as number) < (retried!.time as number))).toBe(true)
    expect(retried!.time as number).toBeLessThan(
      (lastFailed.time as number) + (lastFailed.retryInMs as number),
    )
    expect(events('feed_regained')[0]!.time as number).toBeGreaterThanOrEqual(retried!.time as number)
    expect(gateway.app.upstream.reachable).toBe(true)
  }, 120_000)
})
