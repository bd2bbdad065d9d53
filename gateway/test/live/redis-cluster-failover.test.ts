import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectClient, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { uniquePrefix, waitFor } from './helpers'
import { startRedisCluster, type RedisClusterChild } from '../support/redis-server'
import { FEED_TOKEN, SANDBOX_SYMBOLS, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'

// A 3-master Redis Cluster with a replica each, at Redis's default node timeout, loses the master that
// holds the feed lease (and the channels of some symbols). The gateways see the lost master; while
// nobody can learn who holds the lease, each reads the feed for its own sockets, so no shard's topics
// stall; the cluster promotes the replica, the sharded subscriptions on that shard move to the new
// master, and the lease passes on without two instances ever publishing at once.

const LEASE_MS = 1500
/** Redis's default cluster-node-timeout: the failover takes this long plus a few seconds */
const NODE_TIMEOUT_MS = 15_000

const gaugeOf = (text: string, name: string): number | null => {
  const line = text.split('\n').find((row) => row.startsWith(`${name}{`))
  return line ? Number(line.split(' ').at(-1)) : null
}

function detailTimes(client: TestClient): number[] {
  return client.frames.filter((frame) => frame.type === 'DETAIL').map((frame) => frame.ts ?? 0)
}

describe('a Redis Cluster master lost and its replica promoted', () => {
  let cluster: RedisClusterChild
  let upstream: SandboxUpstream
  const gateways: RunningGateway[] = []
  const clients: TestClient[] = []
  const prefix = uniquePrefix('cluster-failover')

  beforeAll(async () => {
    cluster = await startRedisCluster({ nodeCount: 3, replicasPerMaster: 1, nodeTimeoutMs: NODE_TIMEOUT_MS })
    upstream = await startSandboxUpstream(100)
    for (const id of ['gw-a', 'gw-b'])
      gateways.push(
        await startGateway({
          UPSTREAM_URL: upstream.url,
          FEED_TOKEN,
          REDIS_URL: cluster.url,
          REDIS_PREFIX: prefix,
          FEED_LEASE_MS: LEASE_MS,
          INSTANCE_ID: id,
        }),
      )
  }, 90_000)
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()))
    for (const gateway of gateways) await gateway.close()
    await upstream?.close()
    // the throwaway cluster goes whole, keys and all
    await cluster?.stop()
  })

  it('sees the master gone, moves every subscription to the promoted replica, and passes the lease to one instance', async () => {
    const leaders = () => gateways.filter((gateway) => gateway.app.live.lease?.leader)
    await waitFor(() => leaders().length === 1 && upstream.feedSockets === 1, 'one leader', 30_000)
    // every symbol watched on each instance: their channels hash over all three shards
    for (const gateway of gateways)
      for (const symbol of SANDBOX_SYMBOLS) {
        const client = await connectClient(gateway.socketUrl())
        clients.push(client)
        client.send({ operation: 'subscribe', type: 'DETAIL', symbol })
      }
    await waitFor(() => clients.every((client) => detailTimes(client).length >= 3), 'ticks on every socket')

    // no two instances may publish at any moment from here on. The old holder, cut off from the
    // lease's master, still reads its feed until a renewal tells it the lease has passed, but once
    // its last renewal's lease time is over it neither publishes nor serves its own sockets
    const publishers = () =>
      gateways.filter(({ app }) => {
        const lease = app.live.lease
        return lease?.leader && lease.confirmed && Date.now() < lease.validUntil
      })
    let mostPublishers = 0
    const watchLeaders = setInterval(
      () => (mostPublishers = Math.max(mostPublishers, publishers().length)),
      5,
    )
    // and each instance must see the master gone before the replica takes over
    const sawMasterDown = new Set<number>()
    const watchMasters = setInterval(() => {
      for (const gateway of gateways)
        void gateway.app.inject('/metrics').then((answer) => {
          if ((gaugeOf(answer.body, 'gateway_redis_masters_up') ?? 3) < 3) sawMasterDown.add(gateway.port)
        })
    }, 250)
    try {
      const leaseMaster = await cluster.masterPortOf(`${prefix}feed:lease`)
      const killedAt = Date.now()
      await cluster.killPort(leaseMaster)

      await waitFor(() => sawMasterDown.size === 2, 'both instances seeing the lost master', 30_000)
      // before the replica takes over, nobody can renew or take the lease: both instances read the
      // feed for their own sockets, and every socket, whatever shard its symbol's channel is on,
      // gets ticks dated after the lease ran out
      await waitFor(
        () => gateways.every(({ app }) => app.live.role.fallback),
        'both instances reading the feed for their own sockets',
        30_000,
      )
      const cutOffAt = Date.now()
      await waitFor(
        () => clients.every((client) => detailTimes(client).some((ts) => ts > cutOffAt)),
        'ticks on every socket while the lease master is down',
        30_000,
      )
      expect(await cluster.masterPortOf(`${prefix}feed:lease`).catch(() => leaseMaster)).toBe(leaseMaster)
      // the replica promoted: the slot map names three reachable masters again
      await waitFor(
        async () => {
          for (const gateway of gateways) {
            const text = (await gateway.app.inject('/metrics')).body
            if (gaugeOf(text, 'gateway_redis_masters_up') !== 3) return false
            if (gaugeOf(text, 'gateway_redis_masters') !== 3) return false
          }
          return true
        },
        'three reachable masters after the failover',
        120_000,
      )
      expect(await cluster.masterPortOf(`${prefix}feed:lease`)).not.toBe(leaseMaster)
      // every socket, on every symbol and both instances, gets fresh ticks again
      await waitFor(
        () => clients.every((client) => detailTimes(client).some((ts) => ts > Date.now() - 1000)),
        'fresh ticks on every socket after the failover',
        120_000,
      )
      await waitFor(() => leaders().length === 1, 'one leader after the failover', 30_000)
      // the follower is back on the bus: one feed socket again, nobody reading for itself
      await waitFor(() => upstream.feedSockets === 1, 'one feed socket after the failover', 30_000)
      expect(gateways.filter(({ app }) => app.live.role.fallback)).toHaveLength(0)
      console.log(
        `cluster failover: ticks back on every socket ${(Date.now() - killedAt) / 1000} s after the kill`,
      )
    } finally {
      clearInterval(watchLeaders)
      clearInterval(watchMasters)
    }
    expect(mostPublishers).toBe(1)
    // no frame twice or out of order on any socket (two publishers would repeat them)
    for (const client of clients) {
      const times = detailTimes(client)
      for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!)
    }
  }, 360_000)
})
