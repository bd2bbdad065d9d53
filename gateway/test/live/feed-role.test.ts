import { describe, expect, it } from 'vitest'
import pino from 'pino'
import { FeedRole } from '../../src/live/feed-role'
import type { FeedRoleOptions } from '../../src/live/feed-role'
import { RESYNC_TOPIC } from '../../src/live/bus'

const RESYNC = `publish ${RESYNC_TOPIC}`

// The feed role alone, with stand-ins for the feed, the bus and the lease: when a follower cut off
// from the lease (Redis does not answer its checks) starts reading the feed itself while the bus is
// still up, the holder's frames must keep coming until its own feed flows, and the switch between the
// two must reach its sockets as a resync, never as a silent hole.

function setUp(options: { feedConnected?: boolean } = {}) {
  const events: string[] = []
  const lease = { leader: false, confirmed: false, reachable: true, otherHolderSeenAt: 1, validUntil: 0 }
  const redisBus = {
    up: true,
    publishing: false,
    mayPublish: () => true,
    localFeedStarted: () => events.push('bus frames off'),
    localFeedStopped: () => events.push('bus frames on'),
  }
  const gauge = { set: () => {} }
  const role = new FeedRole({
    feed: {
      connected: options.feedConnected ?? false,
      start: () => events.push('feed start'),
      stop: async () => {
        events.push('feed stop')
      },
    },
    bus: {
      subscribe: () => ({ unsubscribe: () => {} }),
      publish: (topic: string) => events.push(`publish ${topic}`),
    },
    lease,
    redisBus,
    leaseMs: 1500,
    metrics: { feedLeader: gauge, feedFallback: gauge, busUp: gauge, wsResyncs: { inc: () => {} } },
    log: pino({ level: 'silent' }),
    broadcast: () => 0,
  } as unknown as FeedRoleOptions)
  return { role, lease, redisBus, events }
}

describe('a follower that loses its lease checks while the bus is up', () => {
  it("keeps the holder's frames until its own feed flows, then switches and announces a resync", () => {
    const { role, lease, events } = setUp()
    lease.reachable = false
    role.leaseReachableChanged()
    expect(role.fallback).toBe(true)
    // reading its own feed, but the bus still brings the holder's frames meanwhile
    expect(events).toEqual(['feed start'])
    role.feedFlowing(false)
    expect(events).toEqual(['feed start', 'bus frames off', RESYNC])
  })

  it('switches at once, still with a resync on the first flow, when the bus goes down before its own feed flows', () => {
    const { role, lease, redisBus, events } = setUp()
    lease.reachable = false
    role.leaseReachableChanged()
    redisBus.up = false
    role.busChanged(false)
    expect(events).toEqual(['feed start', 'bus frames off'])
    role.feedFlowing(false)
    expect(events.at(-1)).toBe(RESYNC)
  })

  it('announces nothing when the checks answer again before its own feed flowed: no switch happened', () => {
    const { role, lease, events } = setUp()
    lease.reachable = false
    role.leaseReachableChanged()
    lease.reachable = true
    role.leaseReachableChanged()
    expect(role.fallback).toBe(false)
    expect(events).toEqual(['feed start', 'bus frames on', 'feed stop'])
    role.feedFlowing(false)
    expect(events).not.toContain(RESYNC)
  })
})

describe('a holder whose lease ran out while its feed runs', () => {
  it("replaces the bus's frames with its own at once, with no resync: the same feed goes on", () => {
    const { role, lease, events } = setUp({ feedConnected: true })
    lease.reachable = false
    role.leaseReachableChanged()
    expect(events).toEqual(['bus frames off', 'feed start'])
    role.feedFlowing(false)
    expect(events).not.toContain(RESYNC)
  })

  it('tells every instance to resync ahead of the first message it publishes after ones it could not', () => {
    const { role, lease, redisBus, events } = setUp({ feedConnected: true })
    const read = (name: string): void => role.frameRead(() => events.push(name))
    Object.assign(lease, { leader: true, confirmed: true, validUntil: Date.now() + 60_000 })
    redisBus.publishing = true
    read('first')
    // the renewal is late: the lease may be another's, so nothing is delivered or published
    lease.validUntil = Date.now() - 1
    redisBus.publishing = false
    read('withheld')
    // the lease runs out: its own sockets get its frames, the other instances none
    lease.leader = lease.confirmed = false
    lease.reachable = false
    role.leaseReachableChanged()
    read('own sockets only')
    // renewed: the first message that reaches the bus again goes after a resync, and only it
    Object.assign(lease, { leader: true, confirmed: true, reachable: true, validUntil: Date.now() + 60_000 })
    role.leaseChanged({ leader: true, confirmed: true })
    redisBus.publishing = true
    read('published')
    read('next')
    expect(events.filter((event) => event !== 'bus frames off' && !event.startsWith('feed'))).toEqual([
      'first',
      'own sockets only',
      'bus frames on',
      RESYNC,
      'published',
      'next',
    ])
  })
})

describe('an instance that reads no feed, or whose every message reaches the bus', () => {
  it('announces no resync', () => {
    const { role, lease, redisBus, events } = setUp({ feedConnected: true })
    const read = (name: string): void => role.frameRead(() => events.push(name))
    // a follower: its feed is stopped, a message still in flight is dropped and leaves no hole
    redisBus.publishing = false
    read('follower')
    Object.assign(lease, { leader: true, confirmed: true, validUntil: Date.now() + 60_000 })
    redisBus.publishing = true
    read('holder')
    expect(events).toEqual(['holder'])
  })
})
