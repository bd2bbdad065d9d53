import { afterEach, describe, expect, it } from 'vitest'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { REDIS_URL, deleteKeys, uniquePrefix, waitFor } from './helpers'
import { startRedisChild, type RedisChild } from '../support/redis-server'

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
    // the snapshot first: frames that reach the instance before it carry the snapshot's newer value,
    // so a window counted from before it would miss them on this client and not on the other
    await waitFor(() => detailTs(client).length > 0, 'the snapshot')
    return client
  }

  it('gives clients on both instances the same ticks, and the other instance takes over the feed when the leader stops', async () => {
    pair = await startPair(REDIS_URL)
    const [a, b] = pair.gateways as [RunningGateway, RunningGateway]
    const [leader, follower] = a.app.live.lease?.leader ? [a, b] : [b, a]
    const onLeader = await subscribeOn(leader)
    const onFollower = await subscribeOn(follower)
    // the same window of live ticks, seen on both instances: five ticks on the leader's client, then
    // the follower's client holds every tick up to the newest of them
    const from = Math.max(0, ...detailTs(onLeader), ...detailTs(onFollower))
    const inWindow = (client: TestClient, until: number): number[] =>
      detailTs(client).filter((ts) => ts > from && ts <= until)
    await waitFor(() => inWindow(onLeader, Infinity).length >= 5, 'five ticks on the leader')
    const until = Math.max(...inWindow(onLeader, Infinity))
    await waitFor(() => detailTs(onFollower).some((ts) => ts >= until), 'the same ticks on the follower')
    // every one of them, unless the follower's sockets were told to resync: on a starved machine a lease
    // check can wait a whole lease, and the follower then switches to reading the feed itself and says so
    const toldToResync = onFollower.frames.some((frame) => frame.type === 'resync')
    if (!toldToResync) expect(inWindow(onFollower, until)).toEqual(inWindow(onLeader, until))
    expect((await follower.app.inject('/readyz')).statusCode).toBe(200)

    const stoppedAt = Date.now()
    await leader.close()
    await waitFor(() => follower.app.live.lease?.leader === true, 'the follower leads')
    await waitFor(
      () => detailTs(onFollower).some((ts) => ts > stoppedAt + 100),
      'ticks again after the takeover',
    )
    // one feed socket once the takeover settles: a follower whose lease check waited a whole lease on a
    // busy machine reads the feed for itself meanwhile, and stops when the lease's answer comes
    const onlyOne = pair.upstream
    await waitFor(() => onlyOne.feedSockets === 1, 'one feed socket after the takeover')
    expectStrictlyIncreasing(detailTs(onFollower))
    const metrics = (await follower.app.inject('/metrics')).body
    expect(metrics).toMatch(/^gateway_feed_leader\{[^}]*\} 1$/m)
    expect(metrics).toMatch(/^gateway_bus_messages_total\{source="redis"[^}]*\} [1-9]/m)
  })

  it('keeps serving every socket through a Redis restart, stays ready, and resumes with no duplicated frames', async () => {
    redis = await startRedisChild()
    pair = await startPair(redis.url)
    const [a, b] = pair.gateways as [RunningGateway, RunningGateway]
    const [leader, follower] = a.app.live.lease?.leader ? [a, b] : [b, a]
    const onLeader = await subscribeOn(leader)
    const onFollower = await subscribeOn(follower)
    await waitFor(() => detailTs(onFollower).length > 10, 'ticks through Redis')

    await redis.kill()
    const busOf = async (gateway: RunningGateway) => (await gateway.app.inject('/readyz')).json().bus
    await waitFor(async () => (await busOf(follower)) === 'down', 'the follower sees the bus down')
    await waitFor(async () => (await busOf(leader)) === 'down', 'the leader sees the bus down')
    // REST does not need Redis: both stay ready
    expect((await follower.app.inject('/readyz')).statusCode).toBe(200)
    expect((await leader.app.inject('/readyz')).statusCode).toBe(200)
    // the instance without the lease cannot get the holder's frames, so it reads the feed for its
    // own sockets (which one that is may have changed under load since the start)
    await waitFor(
      () => [leader, follower].filter((g) => g.app.live.role.fallback).length === 1,
      'the follower reading the feed itself',
    )
    const [leaderCount, followerCount] = [detailTs(onLeader).length, detailTs(onFollower).length]
    await waitFor(
      () => detailTs(onLeader).length > leaderCount + 10 && detailTs(onFollower).length > followerCount + 10,
      'both instances keep serving their sockets',
    )
    expect(pair.upstream.feedSockets).toBe(2)

    await redis.start()
    const restartedAt = Date.now()
    await waitFor(
      async () => (await busOf(follower)) === 'up' && (await busOf(leader)) === 'up',
      'both see the bus again',
      10_000,
    )
    await waitFor(
      () => detailTs(onFollower).filter((ts) => ts > restartedAt).length > 10,
      'ticks through Redis again',
      10_000,
    )
    expectStrictlyIncreasing(detailTs(onLeader))
    expectStrictlyIncreasing(detailTs(onFollower))
    // the restarted Redis holds no lease: after its own reconnect each instance waits a lease before
    // taking it, so on a busy machine the ticks above may still be the instances' own feeds and nobody
    // holds it yet; one of them takes it
    const { upstream, gateways } = pair
    await waitFor(
      () => gateways.filter((g) => g.app.live.lease?.leader).length === 1,
      'one instance holding the lease again',
    )
    await waitFor(() => upstream.feedSockets === 1, 'the follower stops reading the feed')
    expect(pair.gateways.map((g) => g.app.live.role.fallback)).toEqual([false, false])
    // frames published while an instance was cut off never reached it: its sockets are told so, once
    // (the frame is written when the bus comes back, so it may still be on its way to the client)
    const resyncs = (client: typeof onLeader) => client.frames.filter((frame) => frame.type === 'resync')
    await waitFor(
      () => resyncs(onLeader).length > 0 && resyncs(onFollower).length > 0,
      'both instances tell their sockets what they missed',
    )
    // the bus's return is told once; an instance that read the feed itself while the bus was away
    // may also tell of its feed coming back once data flows on it again, before or after
    for (const client of [onLeader, onFollower]) {
      expect(
        resyncs(client)
          .map((frame) => (frame as { reason?: string }).reason)
          .filter((reason) => reason !== 'feed'),
      ).toEqual(['bus'])
    }
  })
})
