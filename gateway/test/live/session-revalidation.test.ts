import pino from 'pino'
import { describe, expect, it } from 'vitest'
import type { ClientSocket } from '../../src/live/client-socket'
import { MemoryBus } from '../../src/live/memory-bus'
import { REVALIDATE_CONCURRENCY, SessionAuth } from '../../src/live/sessions'
import { SessionRegistry } from '../../src/upstream/session-registry'
import type { UserResolution, UserResolver } from '../../src/upstream/user-resolver'

// A unit test of one piece: after a bus outage the sockets' tokens are asked about again a few at a
// time, never all at once, and the ones the upstream no longer accepts end. The resolver is a stand-in
// whose answers the test releases one by one; the integration with the sandbox is
// sessions-outage.test.ts.

const SOCKETS = 12

describe('revalidating socket sessions after a bus outage', () => {
  it(`asks about ${SOCKETS} tokens at most ${REVALIDATE_CONCURRENCY} at a time and ends the refused ones`, async () => {
    const log = pino({ level: 'silent' })
    const registry = new SessionRegistry({ redis: null, prefix: 'unit:', log })
    const waiting: Array<{ token: string; answer: (resolution: UserResolution) => void }> = []
    let inFlight = 0
    let mostInFlight = 0
    const users = {
      resolve: async (token: string) => ({ userId: `user-${token.slice(-2)}` }),
      revalidate: (token: string) =>
        new Promise<UserResolution>((resolve) => {
          inFlight++
          mostInFlight = Math.max(mostInFlight, inFlight)
          waiting.push({
            token,
            answer: (resolution) => {
              inFlight--
              resolve(resolution)
            },
          })
        }),
      forget: () => {},
    } as unknown as UserResolver
    const auth = new SessionAuth({
      bus: new MemoryBus(),
      registry,
      users,
      log,
      takeFromBudget: async () => true,
    })
    const ended: string[] = []
    for (let i = 0; i < SOCKETS; i++) {
      const token = `token-of-socket-${String(i).padStart(2, '0')}`
      const outcome = await auth.authenticate(token, '127.0.0.1')
      if (!('session' in outcome)) throw new Error('auth refused')
      const client = { session: outcome.session, userId: outcome.userId, endSession: () => ended.push(token) }
      auth.moved(client as unknown as ClientSocket, null)
    }

    const done = auth.revalidate()
    // every other token is no longer accepted
    for (let answered = 0; answered < SOCKETS; answered++) {
      await expect.poll(() => waiting.length).toBeGreaterThan(0)
      expect(inFlight).toBeLessThanOrEqual(REVALIDATE_CONCURRENCY)
      const next = waiting.shift()!
      const index = Number(next.token.slice(-2))
      next.answer(index % 2 === 0 ? { error: 'notAuthorised' } : { userId: `user-${index}` })
    }
    await done
    expect(mostInFlight).toBe(REVALIDATE_CONCURRENCY)
    expect(ended.sort()).toEqual(
      Array.from({ length: SOCKETS / 2 }, (_, i) => `token-of-socket-${String(i * 2).padStart(2, '0')}`),
    )
  })
})
