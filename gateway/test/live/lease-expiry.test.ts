import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pino from 'pino'
import { FeedLease, type LeaseState } from '../../src/live/lease'
import { createRedis, type RedisClient } from '../../src/plugins/external/redis'
import { REDIS_URL, deleteKeys, uniquePrefix, waitFor } from './helpers'
import { startFaultProxy, type FaultProxy } from './tcp-fault-proxy'

// A lease holder whose Redis stops answering (a frozen or failed master: connections stay open, no
// reply comes) cannot renew, so past its lease it must stop calling itself leader, whatever its
// hanging renewal would say: otherwise no alert sees that nobody leads, and another instance may
// take the key meanwhile.

const LEASE_MS = 600
const prefix = uniquePrefix('lease-expiry')
let proxy: FaultProxy
let redis: RedisClient
let lease: FeedLease
const states: LeaseState[] = []
const reachability: boolean[] = []

beforeAll(async () => {
  const target = new URL(REDIS_URL)
  proxy = await startFaultProxy({ targetHost: target.hostname, targetPort: Number(target.port || 6379) })
  redis = createRedis(`redis://127.0.0.1:${proxy.port}`)
  // the reset at the end is expected; the lease reads the connection's state, not its errors
  redis.on('error', () => {})
  lease = new FeedLease({
    redis,
    key: `${prefix}feed:lease`,
    holder: 'lease-expiry-test',
    leaseMs: LEASE_MS,
    log: pino({ level: 'silent' }),
    onChange: (state) => states.push(state),
    onReachableChange: (reachable) => reachability.push(reachable),
  })
})
afterAll(async () => {
  proxy?.blackhole(false)
  await lease?.stop()
  redis?.disconnect()
  await proxy?.close()
  await deleteKeys(prefix)
})

describe('a lease holder that cannot renew', () => {
  it('stops reporting itself leader once its lease has run out, and leads again when Redis answers', async () => {
    lease.start()
    await waitFor(() => lease.leader && lease.confirmed, 'the lease taken')
    const toldBefore = reachability.length
    proxy.blackhole(true)
    // the renewal sent now hangs: only the lease's own clock can end the leadership
    await waitFor(() => !lease.leader, 'leadership ended by the lease running out')
    expect(Date.now()).toBeGreaterThanOrEqual(lease.validUntil)
    expect(states.at(-1)).toEqual({ leader: false, confirmed: false })
    // and nobody can learn who holds it now: the feed role reads the feed for its own sockets
    expect(lease.reachable).toBe(false)
    // it stays a follower while Redis is silent
    const ended = states.length
    await waitFor(() => proxy.droppedBytes > 0, 'a command dropped')
    expect(states.slice(ended).some((state) => state.leader)).toBe(false)

    // nothing told it Redis answers while it was silent (its lost lease told the role it was gone)
    expect(reachability.slice(toldBefore)).toEqual([])
    proxy.blackhole(false)
    // the blackholed connection never answers; a new one (ioredis reconnects once it is reset) does
    proxy.resetAll()
    await waitFor(() => lease.leader && lease.confirmed, 'the lease taken again', 30_000)
    expect(lease.reachable).toBe(true)
    // told once Redis answered again; on a starved machine the short test lease may lapse again after
    // (each lapse is told by the lost lease, each recovery by another \`true\`), so the first is what counts
    expect(reachability.slice(toldBefore)[0]).toBe(true)
    expect(reachability.every((reachable) => reachable)).toBe(true)
  }, 60_000)
})

/**
 * Runs `body` with a follower that has seen another instance hold the lease (for the whole test), and
 * the reachability changes it reported; stops both after.
 */
async function withFollower(
  name: string,
  body: (follower: FeedLease, told: boolean[]) => Promise<void>,
): Promise<void> {
  const key = `${prefix}${name}:lease`
  const holderRedis = createRedis(REDIS_URL)
  const told: boolean[] = []
  const follower = new FeedLease({
    redis,
    key,
    holder: `lease-expiry-${name}`,
    leaseMs: LEASE_MS,
    log: pino({ level: 'silent' }),
    onChange: () => {},
    onReachableChange: (reachable) => told.push(reachable),
  })
  try {
    await waitFor(() => holderRedis.status === 'ready', 'the holder connected')
    await holderRedis.set(key, 'another-instance', 'PX', 120_000)
    follower.start()
    await waitFor(() => follower.otherHolderSeenAt > 0, 'the holder seen')
    await body(follower, told)
  } finally {
    proxy.blackhole(false)
    await follower.stop()
    holderRedis.disconnect()
  }
}

describe('a follower whose lease checks go unanswered', () => {
  it('says Redis is unreachable once a check has waited a lease, and reachable at the next answer, still following', async () => {
    await withFollower('follower', async (follower, told) => {
      expect(follower.reachable).toBe(true)
      proxy.blackhole(true)
      await waitFor(() => !follower.reachable, 'a check unanswered for a lease')
      expect(follower.leader).toBe(false)
      proxy.blackhole(false)
      proxy.resetAll()
      await waitFor(() => follower.reachable, 'an answer again', 30_000)
      expect(told).toEqual([false, true])
      expect(follower.leader).toBe(false)
    })
  }, 60_000)
})

describe('a follower whose own Redis connection comes back', () => {
  it('sends no check during its quiet lease after the reconnect, so it never calls Redis unreachable for it', async () => {
    await withFollower('reconnect', async (follower, told) => {
      const cut = Date.now()
      // the connection drops and ioredis connects again at once: answers never stopped for a lease
      proxy.resetAll()
      await waitFor(() => follower.otherHolderSeenAt > cut, 'the holder seen again after the quiet lease')
      expect(told).toEqual([])
      expect(follower.reachable).toBe(true)
      expect(follower.leader).toBe(false)
    })
  }, 60_000)
})
