import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { Value } from 'typebox/value'
import { FAILURE_CODE } from '@tradegate/shared'

// Sandbox time: the source clock plus an offset that a control call moves forward, so tests and demos
// can let option expiries and other deadlines pass without waiting for them.

const MAX_ADVANCE_MS = 30 * 24 * 3600_000
const Advance = Type.Object(
  { advanceMs: Type.Integer({ minimum: 1, maximum: MAX_ADVANCE_MS }) },
  { additionalProperties: false },
)

export class SandboxClock {
  private offsetMs = 0

  constructor(private readonly source: () => number) {}

  readonly now = (): number => this.source() + this.offsetMs

  advance(ms: number): void {
    this.offsetMs += ms
  }
}

/**
 * GET /sandbox/time reads sandbox time; POST /sandbox/time {advanceMs} moves it forward (never back)
 * and runs `onAdvance` at once, so whatever fell due settles before the answer.
 */
export function registerClockControl(app: FastifyInstance, clock: SandboxClock, onAdvance: () => void): void {
  app.get('/sandbox/time', () => ({ code: 200, msg: 'success', data: { now: clock.now() } }))
  app.post('/sandbox/time', (request, reply) => {
    const body = request.body ?? {}
    if (!Value.Check(Advance, body)) {
      return reply
        .code(400)
        .send({ code: FAILURE_CODE, msg: `invalidParameter: advanceMs must be 1 to ${MAX_ADVANCE_MS}` })
    }
    clock.advance(body.advanceMs)
    onAdvance()
    return { code: 200, msg: 'success', data: { now: clock.now() } }
  })
}
