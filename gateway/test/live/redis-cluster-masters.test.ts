import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, startUpstream, waitFor, type TestGateway, type TestUpstream } from '../helpers'
import { startRedisCluster, type RedisClusterChild } from '../support/redis-server'

// A lost Redis Cluster master leaves the cluster connection "ready" (the other shards work), so the
// gateway pings each master itself and exports how many it knows and how many answer.

const gauge = (text: string, name: string): number | null => {
  const line = text.split('\n').find((row) => row.startsWith(`${name}{`))
  return line ? Number(line.split(' ').at(-1)) : null
}

describe('Redis Cluster master health', () => {
  let cluster: RedisClusterChild
  let upstream: TestUpstream
  let gateway: TestGateway
  const masters = async () => {
    const text = (await gateway.app.inject({ url: '/metrics' })).body
    return { known: gauge(text, 'gateway_redis_masters'), up: gauge(text, 'gateway_redis_masters_up') }
  }

  beforeAll(async () => {
    cluster = await startRedisCluster({ nodeCount: 3 })
    upstream = await startUpstream()
    gateway = await startTestGateway({ UPSTREAM_URL: upstream.url, REDIS_URL: cluster.url })
  }, 60_000)
  afterAll(async () => {
    // the throwaway cluster goes whole, so its keys need no deleting (which a lost shard would refuse)
    await gateway?.app.close()
    await upstream?.close()
    await cluster?.stop()
  })

  it('sees a lost master while the cluster connection stays ready, and logs it', async () => {
    await waitFor(async () => (await masters()).up === 3, 'three masters answering', 20_000)
    expect(await masters()).toEqual({ known: 3, up: 3 })
    await cluster.killNode(1)
    await waitFor(async () => (await masters()).up === 2, 'the lost master seen', 20_000)
    expect((await masters()).known).toBe(3)
    expect(gateway.app.redis?.status).toBe('ready')
    const text = (await gateway.app.inject({ url: '/metrics' })).body
    expect(gauge(text, 'gateway_redis_up')).toBe(1)
    const lost = gateway.logs.filter((line) => line.event === 'redis_master_down')
    expect(lost).toHaveLength(1)
    expect(lost[0]).toMatchObject({ known: 3, unreachable: [expect.stringMatching(/^127\.0\.0\.1:\d+$/)] })
  }, 60_000)
})
