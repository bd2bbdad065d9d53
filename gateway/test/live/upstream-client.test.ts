import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, waitFor, type TestGateway } from '../helpers'
import { connectClient } from './client'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'

// The live part reaches the upstream through the REST path's client: a socket's token and the coin
// list its subscriptions are checked against are read through the same pool, with the same
// timeouts and metrics, and never as requests the gateway makes to itself.

/** The count of one route's upstream call durations on the gateway's /metrics. */
async function upstreamCalls(gateway: TestGateway, route: string): Promise<number> {
  const text = (await gateway.app.inject('/metrics')).body
  const line = text
    .split('\n')
    .find(
      (row) =>
        row.startsWith('gateway_upstream_request_duration_seconds_count{') &&
        row.includes(`route="${route}"`),
    )
  return line ? Number(line.split(' ').at(-1)) : 0
}

describe('one upstream client', () => {
  let upstream: SandboxUpstream
  let gateway: TestGateway
  let port = 0

  let started = 0

  beforeAll(async () => {
    upstream = await startSandboxUpstream()
    started = Date.now()
    gateway = await startTestGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN, REDIS_URL: '' })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    port = (gateway.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('resolves socket tokens and reads the coin list through the upstream client, not through its own routes', async () => {
    const user = await upstream.register(`pool${Date.now().toString(36)}`)
    const client = await connectClient(`ws://127.0.0.1:${port}/ws/pool-client`)
    try {
      client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
      client.send({ operation: 'auth', satoken: user.token })
      client.send({ operation: 'subscribe', type: 'OWNCOIN' })
      await client.next((frame) => frame.type === 'DETAIL')
      await waitFor(() => gateway.app.live.hub.subscriberCount(`USER:${user.userId}`) === 1, 'signed in')
    } finally {
      await client.close()
    }
    expect(await upstreamCalls(gateway, CALLS.userInfo.path)).toBe(1)
    // read at start, then at most once more per fresh window: a starved machine can outlast one
    const freshWindows = 1 + Math.floor((Date.now() - started) / CALLS.getCoinList.cache!.freshMs)
    const coinListReads = await upstreamCalls(gateway, CALLS.getCoinList.path)
    expect(coinListReads).toBeGreaterThanOrEqual(1)
    expect(coinListReads).toBeLessThanOrEqual(freshWindows)
    // no request line for a call the gateway made to itself
    const requests = gateway.logs.filter((line) => line.msg === 'request').map((line) => line.route)
    expect(requests).not.toContain(CALLS.getCoinList.path)
    expect(requests).not.toContain(CALLS.userInfo.path)
  })
})
