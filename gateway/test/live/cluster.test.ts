import { afterEach, describe, expect, it } from 'vitest'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { REDIS_URL, deleteKeys, sleep, uniquePrefix, waitFor } from './helpers'
import { startRedisChild, type RedisChild } from './redis-server'

// Two gateway instances in this process sharing one Redis and the sandbox's live feed: one feed
// lease, frames across instances.

const LEASE_MS = 1500

interface Pair {
  upstream: SandboxUpstream
  gateways: RunningGateway[]
  prefix: string
  redisUrl: string
}

async function startPair(redisUrl: string): Promise<Pair> {
  const upstream = await startSandboxUpstream()
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
    () => gateways.filter((g) => g.app.live.lease?.leader).length === 1 && upstream.feedSockets === 1,
    'one leader with its feed',
  )
  return { upstream, gateways, prefix, redisUrl }
}

function detailTs(client: TestClient): number[] {
  return client.frames.filter((frame) => frame.type === 'DETAIL').map((frame) => frame.ts ?? 0)
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
    // the same window of live ticks, seen on both instances
    const from = Date.now() + 100
    await sleep(1000)
    const until = Date.now()
    await sleep(300)
    const inWindow = (client: TestClient): number[] =>
      detailTs(client).filter((ts) => ts > from && ts <= until)
    expect(inWindow(onLeader).length).toBeGreaterThanOrEqual(5)
    expect(inWindow(onFollower)).toEqual(inWindow(onLeader))
    expect((await follower.app.inject('/readyz')).statusCode).toBe(200)

    const stoppedAt = Date.now()
    await leader.close()
    await waitFor(() => follower.app.live.lease?.leader === true, 'the follower leads', 6000)
    await waitFor(
      () => detailTs(onFollower).some((ts) => ts > stoppedAt + 100),
      'ticks again after the takeover',
      6000,
    )
    expect(Date.now() - stoppedAt).toBeLessThan(6000)
    expect(pair.upstream.feedSockets).toBe(1)
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
    const restartedAt = Date.now()
    await waitFor(
      async () =>
        (await follower.app.inject('/readyz')).statusCode === 200 &&
        (await leader.app.inject('/readyz')).statusCode === 200,
      'both ready again',
      10_000,
    )
    await waitFor(
      () => detailTs(onFollower).filter((ts) => ts > restartedAt).length > 10,
      'ticks through Redis again',
      10_000,
    )
    expectStrictlyIncreasing(detailTs(onLeader))
    expectStrictlyIncreasing(detailTs(onFollower))
    expect(pair.gateways.filter((g) => g.app.live.lease?.leader)).toHaveLength(1)
    expect(pair.upstream.feedSockets).toBe(1)
  })
})
