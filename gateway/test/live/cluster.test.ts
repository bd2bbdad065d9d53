import { afterEach, describe, expect, it } from 'vitest'
import { FEED_TOKEN, startFakeUpstream, upstreamDetail, type FakeUpstream } from './fake-upstream'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { REDIS_URL, deleteKeys, sleep, uniquePrefix, waitFor } from './helpers'
import { startRedisChild, type RedisChild } from './redis-server'

// Two gateway instances in this process sharing one Redis: one feed lease, frames across instances.

const LEASE_MS = 1500

interface Pair {
  upstream: FakeUpstream
  gateways: RunningGateway[]
  prefix: string
  redisUrl: string
}

async function startPair(redisUrl: string): Promise<Pair> {
  const upstream = await startFakeUpstream()
  const prefix = uniquePrefix('live-pair')
  const common = {
    UPSTREAM_URL: upstream.url,
    FEED_TOKEN,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    FEED_LEASE_MS: LEASE_MS,
  }
  const gateways = [
    await startGateway({ ...common, INSTANCE_ID: 'gw-a' }),
    await startGateway({ ...common, INSTANCE_ID: 'gw-b' }),
  ]
  await waitFor(
    () => gateways.filter((g) => g.app.live.lease?.leader).length === 1 && upstream.feedConnections === 1,
    'one leader with its feed',
  )
  return { upstream, gateways, prefix, redisUrl }
}

function detailTs(client: TestClient): number[] {
  return client.frames.filter((frame) => frame.type === 'DETAIL').map((frame) => frame.ts ?? 0)
}

/** Sends a DETAIL tick every 20 ms with an increasing ts until stopped. */
function ticking(upstream: FakeUpstream): { stop(): void; readonly last: number } {
  let ts = 1
  const timer = setInterval(() => upstream.send(upstreamDetail('btcusdt', 100 + (ts % 50), ts++)), 20)
  return {
    stop: () => clearInterval(timer),
    get last() {
      return ts - 1
    },
  }
}

function expectStrictlyIncreasing(values: number[]): void {
  for (let i = 1; i < values.length; i++) {
    if (values[i]! <= values[i - 1]!) throw new Error(`frame ${values[i]} after ${values[i - 1]} at ${i}`)
  }
}

describe('two instances over Redis', () => {
  let pair: Pair | undefined
  let redis: RedisChild | undefined
  const clients: TestClient[] = []
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
    for (const gateway of pair?.gateways ?? []) await gateway.close()
    await pair?.upstream.close()
    if (pair && pair.redisUrl === REDIS_URL) await deleteKeys(pair.prefix)
    await redis?.kill()
    pair = redis = undefined
  })

  async function subscribeOn(gateway: RunningGateway): Promise<TestClient> {
    const client = await connectClient(gateway.socketUrl())
    clients.push(client)
    client.send({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    await waitFor(() => gateway.app.live.hub.subscriberCount('DETAIL:btcusdt') === 1, 'subscribed')
    return client
  }

  it('gives clients on both instances the same ticks, and the other instance takes over the feed when the leader stops', async () => {
    pair = await startPair(REDIS_URL)
    const [a, b] = pair.gateways as [RunningGateway, RunningGateway]
    const [leader, follower] = a.app.live.lease?.leader ? [a, b] : [b, a]
    const onLeader = await subscribeOn(leader)
    const onFollower = await subscribeOn(follower)
    await sleep(100)
    const ticks = ticking(pair.upstream)
    await waitFor(
      () => detailTs(onFollower).includes(20) && detailTs(onLeader).includes(20),
      'twenty ticks on both',
    )
    expect(detailTs(onFollower).filter((ts) => ts <= 20)).toEqual(detailTs(onLeader).filter((ts) => ts <= 20))
    expect((await follower.app.inject('/readyz')).statusCode).toBe(200)

    const stoppedAt = Date.now()
    await leader.close()
    const tsAtStop = ticks.last
    await waitFor(() => follower.app.live.lease?.leader === true, 'the follower leads', 6000)
    await waitFor(
      () => detailTs(onFollower).some((ts) => ts > tsAtStop + 5),
      'ticks again after the takeover',
      6000,
    )
    expect(Date.now() - stoppedAt).toBeLessThan(6000)
    ticks.stop()
    expectStrictlyIncreasing(detailTs(onFollower))
    const metrics = (await follower.app.inject('/metrics')).body
    expect(metrics).toMatch(/^gateway_feed_leader\{[^}]*\} 1$/m)
    expect(metrics).toMatch(/^gateway_bus_messages_total\{source="redis"[^}]*\} [1-9]/m)
  })

  it('keeps serving through a Redis restart, reports not ready meanwhile, and resumes with no duplicated frames', async () => {
    redis = await startRedisChild()
    pair = await startPair(redis.url)
    const [a, b] = pair.gateways as [RunningGateway, RunningGateway]
    const [leader, follower] = a.app.live.lease?.leader ? [a, b] : [b, a]
    const onLeader = await subscribeOn(leader)
    const onFollower = await subscribeOn(follower)
    const ticks = ticking(pair.upstream)
    await waitFor(() => detailTs(onFollower).length > 10, 'ticks through Redis')

    await redis.kill()
    await waitFor(async () => (await follower.app.inject('/readyz')).statusCode === 503, 'follower not ready')
    await waitFor(async () => (await leader.app.inject('/readyz')).statusCode === 503, 'leader not ready')
    const leaderCount = detailTs(onLeader).length
    await waitFor(
      () => detailTs(onLeader).length > leaderCount + 10,
      'the leader keeps serving its own sockets',
    )
    expect(onFollower.ws.readyState).toBe(onFollower.ws.OPEN)

    await redis.start()
    const tsAtRestart = ticks.last
    await waitFor(
      async () =>
        (await follower.app.inject('/readyz')).statusCode === 200 &&
        (await leader.app.inject('/readyz')).statusCode === 200,
      'both ready again',
      10_000,
    )
    await waitFor(
      () => detailTs(onFollower).some((ts) => ts > tsAtRestart + 10),
      'ticks through Redis again',
      10_000,
    )
    ticks.stop()
    await sleep(100)
    expectStrictlyIncreasing(detailTs(onLeader))
    expectStrictlyIncreasing(detailTs(onFollower))
    expect(pair.gateways.filter((g) => g.app.live.lease?.leader)).toHaveLength(1)
    expect(pair.upstream.feedConnections).toBe(1)
  })
})
