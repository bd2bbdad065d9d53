import { afterEach, describe, expect, it, vi } from 'vitest'
import pino from 'pino'
import type { RedisClient } from '../../src/plugins/external/redis'
import { SessionRegistry } from '../../src/upstream/session-registry'
import { tokenKey } from '../../src/upstream/user-resolver'

// A socket is told its session ended only once the end is stored in Redis, so whoever has been told
// finds every instance refusing the token, even one the bus notice has not reached; a Redis that does
// not answer holds the telling back for a second at most. Redis here is a stand-in whose SET answers
// when the test says: the order is the point, and a real server answers too fast to show it.

function registryWith(set: () => Promise<unknown>) {
  const redis = { status: 'ready', set } as unknown as RedisClient
  const registry = new SessionRegistry({ redis, prefix: 'test:', log: pino({ enabled: false }) })
  const told: string[][] = []
  registry.onEnded((keys) => told.push(keys))
  registry.learn(tokenKey('first-token'), 'u1')
  registry.learn(tokenKey('second-token'), 'u1')
  return { registry, told }
}

describe('a session end reaches the sockets after Redis has it', () => {
  afterEach(() => vi.useRealTimers())

  it('tells the sockets once the ended tokens are stored, not before', async () => {
    const pending: Array<() => void> = []
    const { registry, told } = registryWith(() => new Promise<void>((resolve) => pending.push(resolve)))
    const ending = registry.end('revoked', { token: 'first-token' })
    await Promise.resolve()
    // ended here at once: this instance refuses both tokens while Redis is still storing them
    expect(registry.endedHere(tokenKey('first-token'))).toBe(true)
    expect(registry.endedHere(tokenKey('second-token'))).toBe(true)
    expect(told).toEqual([])
    expect(pending).toHaveLength(2)
    for (const answer of pending) answer()
    await ending
    expect(told).toEqual([[tokenKey('first-token'), tokenKey('second-token')]])
  })

  it('tells them within a second when Redis does not answer', async () => {
    vi.useFakeTimers()
    const { registry, told } = registryWith(() => new Promise(() => {}))
    const ending = registry.end('revoked', { userId: 'u1' })
    await vi.advanceTimersByTimeAsync(999)
    expect(told).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await ending
    expect(told).toHaveLength(1)
  })
})

describe('a session end travels between instances', () => {
  // Two instances joined by a carrier that, like the Redis bus, hands every notice to every instance,
  // the sender's own included, when the test delivers them.
  function twoInstances() {
    const redis = { status: 'ready', set: async () => 'OK' } as unknown as RedisClient
    const make = () => new SessionRegistry({ redis, prefix: 'test:', log: pino({ enabled: false }) })
    const here = make()
    const there = make()
    const inFlight: string[] = []
    for (const registry of [here, there]) registry.onAnnounce((notice) => void inFlight.push(notice))
    // an instance that ended tokens only it knew announces them in turn: deliver until all is quiet
    const deliver = () => {
      for (let notice = inFlight.shift(); notice; notice = inFlight.shift()) {
        for (const registry of [here, there]) registry.receive(notice)
      }
    }
    return { here, there, deliver }
  }

  it("ends the user's tokens the other instance learned, and not a sign-in made since on the ending one", async () => {
    const { here, there, deliver } = twoInstances()
    here.learn(tokenKey('signing-out'), 'u1')
    there.learn(tokenKey('other-session'), 'u1')
    await here.end('revoked', { token: 'signing-out' })
    // the user signs in again on the same instance before the notice has come back from the carrier
    here.learn(tokenKey('signed-in-again'), 'u1')
    deliver()
    expect(there.endedHere(tokenKey('signing-out'))).toBe(true)
    expect(there.endedHere(tokenKey('other-session'))).toBe(true)
    expect(here.endedHere(tokenKey('signing-out'))).toBe(true)
    expect(here.endedHere(tokenKey('signed-in-again'))).toBe(false)
  })
})
