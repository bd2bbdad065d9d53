import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { waitFor } from './helpers'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'

// gateway_ws_topics_silent counts what subscribers meet: market topics watched here that got no frame
// for 30 s, while the instance still holds the feed (its leader gauge stays 1). GatewayTopicsSilent
// alerts on it.

async function gauge(gateway: RunningGateway, name: string): Promise<number> {
  const text = (await gateway.app.inject('/metrics')).body
  const line = text.split('\n').find((row) => row.startsWith(`${name}{`))
  return line ? Number(line.split(' ').at(-1)) : Number.NaN
}

describe('silent topics', () => {
  let upstream: SandboxUpstream
  let gateway: RunningGateway
  let client: TestClient

  beforeAll(async () => {
    upstream = await startSandboxUpstream(100)
    gateway = await startGateway({ UPSTREAM_URL: upstream.url, FEED_TOKEN })
    client = await connectClient(gateway.socketUrl())
    for (const symbol of ['btcusdt', 'ethusdt'])
      client.send({ operation: 'subscribe', type: 'DETAIL', symbol })
    await client.next((frame) => frame.type === 'DETAIL' && frame.symbol === 'ethusdt')
  }, 60_000)
  afterAll(async () => {
    await client?.close()
    await gateway?.close()
    await upstream?.close()
  })

  it('counts the watched market topics that stopped getting frames, while the leader still leads, and none once they flow', async () => {
    expect(await gauge(gateway, 'gateway_ws_topics_silent')).toBe(0)
    await upstream.pauseFeed()
    try {
      await waitFor(
        async () => (await gauge(gateway, 'gateway_ws_topics_silent')) === 2,
        'both watched topics counted silent',
        90_000,
      )
      expect(await gauge(gateway, 'gateway_feed_leader')).toBe(1)
    } finally {
      await upstream.resumeFeed()
    }
    await waitFor(
      async () => (await gauge(gateway, 'gateway_ws_topics_silent')) === 0,
      'no silent topic once frames flow',
      60_000,
    )
  }, 180_000)
})
