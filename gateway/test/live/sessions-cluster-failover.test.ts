import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS, TOKEN_HEADER, WS_ERROR } from '@tradegate/shared'
import { RedisBus } from '../../src/live/redis-bus'
import { startRedisCluster, type RedisClusterChild } from '../support/redis-server'
import { FEED_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream'
import { connectClient, type Frame, type TestClient } from './client'
import { startGateway, type RunningGateway } from './gateway-stack'
import { uniquePrefix, waitFor } from './helpers'

// A sign-out made while the Redis Cluster master that carries session-end notices is lost (three
// masters with a replica each, at Redis's default node timeout). The instance that took it answers
// and ends its own socket at once; the other instance ends its socket of the same user and refuses the
// token once the replica has taken over, so the end is late, never lost: the notice the first
// instance could not publish goes once the shard answers again (the connection stayed ready, so no
// change of status says so), and an instance whose notice subscription was lost asks the upstream
// about its sockets' tokens once it is subscribed again, which finds the end even when its sender is
// gone. A
// throwaway cluster of its own; the machine's Redis is never touched.

/** Redis's default cluster-node-timeout */
const NODE_TIMEOUT_MS = 15_000
/** The one call of the bus's Cluster publisher the notices go through. */
type NoticePublisher = { spublish(channel: string, message: string): Promise<unknown> }
const isEnded = (frame: Frame) => frame.type === 'error' && frame.code === WS_ERROR.sessionEnded

// Two steps of one failover, kept in order when tests are shuffled: the second brings back the master the
// first one killed.
describe(
  'a sign-out while the Redis Cluster master carrying session ends fails over',
  { shuffle: false },
  () => {
    let cluster: RedisClusterChild
    let upstream: SandboxUpstream
    let a: RunningGateway
    let b: RunningGateway
    /** a bus with no sockets and no upstream: it hears only what instances publish */
    let observer: RedisBus
    const notices: string[] = []
    /** the master the first test kills, which the second brings back as a replica */
    let lostMaster = 0
    let closedA = false
    const clients: TestClient[] = []
    const prefix = uniquePrefix('sessions-cluster')

    async function watchBalance(gateway: RunningGateway, token: string, userId: string): Promise<TestClient> {
      const client = await connectClient(gateway.socketUrl())
      clients.push(client)
      client.send({ operation: 'auth', satoken: token })
      client.send({ operation: 'subscribe', type: 'OWNCOIN' })
      await waitFor(
        () => gateway.app.live.hub.subscriberCount(`USER:${userId}`) === 1,
        'balance subscription',
      )
      return client
    }

    beforeAll(async () => {
      cluster = await startRedisCluster({
        nodeCount: 3,
        replicasPerMaster: 1,
        nodeTimeoutMs: NODE_TIMEOUT_MS,
      })
      upstream = await startSandboxUpstream()
      const common = { UPSTREAM_URL: upstream.url, FEED_TOKEN, REDIS_URL: cluster.url, REDIS_PREFIX: prefix }
      a = await startGateway({ ...common, INSTANCE_ID: 'gw-a' })
      b = await startGateway({ ...common, INSTANCE_ID: 'gw-b' })
      observer = new RedisBus({ url: cluster.url, prefix })
      observer.onNotice((notice) => notices.push(notice))
      await waitFor(() => a.app.live.bus.up && b.app.live.bus.up && observer.up, 'buses up', 30_000)
    }, 90_000)
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()))
      await observer?.close()
      if (!closedA) await a?.close()
      await b?.close()
      await upstream?.close()
      await cluster?.stop()
    })

    it('ends the other instance’s session of the same user once the replica takes over, and refuses its token', async () => {
      const username = `cluster${Date.now().toString(36)}`
      const { token: first, userId } = await upstream.register(username)
      const second = await upstream.signIn(username)
      const onA = await watchBalance(a, first, userId)
      const onB = await watchBalance(b, second, userId)

      // what a's bus got through to Redis of this user's notice: counted where it is sent, since a
      // subscriber moves to the promoted replica on its own refresh and may miss any one copy
      const sent: string[] = []
      /** the notices (a sign-out may announce more than one) whose publish failed at least once */
      const failed = new Set<string>()
      const publisher = (a.app.live.bus as unknown as { publisher: NoticePublisher }).publisher
      const spublish = publisher.spublish.bind(publisher)
      publisher.spublish = (channel, message) =>
        spublish(channel, message).then(
          (result) => {
            if (message.includes(`:${userId}:`)) sent.push(message)
            return result
          },
          (error: unknown) => {
            if (message.includes(`:${userId}:`)) failed.add(message)
            throw error
          },
        )
      // the feed's logout event would tell b by itself: it is held back, so only the bus can
      await upstream.pauseFeed()
      lostMaster = await cluster.masterPortOf(`${prefix}notice`)
      await cluster.killPort(lostMaster)
      const signOut = await fetch(`http://127.0.0.1:${a.port}${CALLS.loginOut.path}`, {
        method: 'POST',
        headers: { [TOKEN_HEADER]: first },
      })
      expect(await signOut.json()).toMatchObject({ code: 200 })
      expect(await onA.next(isEnded)).toMatchObject({ msg: 'sessionEnded' })
      // the notice a kept goes once the shard has a master again
      await waitFor(() => sent.length > 0, 'the notice published', 120_000)

      // once the replica has taken over the notice reaches b: its socket is told and streams nothing
      // private, and the token is refused there by REST and by a new socket without asking the upstream
      expect(await onB.next(isEnded, 120_000)).toMatchObject({ msg: 'sessionEnded' })
      expect(b.app.live.hub.subscriberCount(`USER:${userId}`)).toBe(0)
      await upstream.resumeFeed()
      const before = await upstream.callCount(CALLS.userInfo.path)
      const rest = await fetch(`http://127.0.0.1:${b.port}${CALLS.userInfo.path}`, {
        headers: { [TOKEN_HEADER]: second },
      })
      expect(rest.status).toBe(401)
      const late = await connectClient(b.socketUrl())
      clients.push(late)
      late.send({ operation: 'auth', satoken: second })
      expect(await late.next(isEnded)).toMatchObject({ msg: 'sessionEnded' })
      expect(await upstream.callCount(CALLS.userInfo.path)).toBe(before)
      // tried every second through the outage, the kept notice goes as its send and one resend after
      // that send went through: the outage's length, the number of tries, adds no copies
      // (a publish that went through at its first try, the shard's loss not yet seen, is not kept: one copy)
      const copiesOf = (notice: string) => sent.filter((one) => one === notice).length
      const expected = (notice: string) => (failed.has(notice) ? 2 : 1)
      await waitFor(
        () => [...new Set(sent)].every((notice) => copiesOf(notice) >= expected(notice)),
        'the kept notices resent',
        30_000,
      )
      for (const notice of new Set(sent)) expect(copiesOf(notice), notice).toBe(expected(notice))
      expect(failed.size).toBeGreaterThan(0)
      // and no instance hears one more often than it was sent
      for (const wire of new Set(sent)) {
        const notice = wire.slice(wire.indexOf('|') + 1)
        expect(notices.filter((one) => one === notice).length).toBeLessThanOrEqual(copiesOf(wire))
      }
    }, 180_000)

    it('ends the other instance’s session once its notice subscription is back, even with the instance that took the sign-out gone', async () => {
      // the lost master comes back as the promoted one's replica, which can then take over in turn
      const first = await cluster.masterPortOf(`${prefix}notice`)
      await cluster.restartPort(lostMaster)
      const restarted = new Redis({ port: lostMaster, host: '127.0.0.1' })
      try {
        await waitFor(
          async () => (await restarted.info('replication')).includes('master_link_status:up'),
          'a replica in sync',
          60_000,
        )
      } finally {
        restarted.disconnect()
      }
      const username = `gone${Date.now().toString(36)}`
      const { token: signingOut, userId } = await upstream.register(username)
      const other = await upstream.signIn(username)
      const onB = await watchBalance(b, other, userId)

      await upstream.pauseFeed()
      await cluster.killPort(first)
      const signOut = await fetch(`http://127.0.0.1:${a.port}${CALLS.loginOut.path}`, {
        method: 'POST',
        headers: { [TOKEN_HEADER]: signingOut },
      })
      expect(await signOut.json()).toMatchObject({ code: 200 })
      // the instance that took it stops with its notice unsent
      await a.close()
      closedA = true
      expect(await onB.next(isEnded, 120_000)).toMatchObject({ msg: 'sessionEnded' })
      expect(b.app.live.hub.subscriberCount(`USER:${userId}`)).toBe(0)
      await upstream.resumeFeed()
    }, 180_000)
  },
)
