import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { MAX_WHOLE_NUMBER, isWholeText } from './whole-number'

describe('whole numbers judged by their written text', () => {
  it.each([
    ['9007199254740993', {}, true],
    ['9223372036854775807', {}, true],
    ['9223372036854775808', {}, false],
    ['-9223372036854775808', {}, true],
    ['-9223372036854775809', {}, false],
    ['9007199254740993', { maximum: 100 }, false],
    ['100', { minimum: 1, maximum: 100 }, true],
    ['101', { minimum: 1, maximum: 100 }, false],
    ['0', { minimum: 1 }, false],
    ['1e2', {}, false],
    ['1E2', {}, false],
    ['1e400', {}, false],
    ['100.0', {}, false],
    ['100.0000000000000001', {}, false],
    ['+1', {}, false],
    ['01', {}, false],
    ['-0', { minimum: 0 }, true],
    ['', {}, false],
    [' 1', {}, false],
    ['1'.repeat(400), {}, false],
  ])('%s within %o: %s', (text, bounds, taken) => {
    expect(isWholeText(text, bounds)).toBe(taken)
  })

  it('agrees with exact arithmetic on every plainly written whole number', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -MAX_WHOLE_NUMBER * 2n, max: MAX_WHOLE_NUMBER * 2n }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 2000 }),
        (value, minimum, span) => {
          const maximum = minimum + span
          const inside = value >= BigInt(minimum) && value <= BigInt(maximum)
          expect(isWholeText(value.toString(), { minimum, maximum })).toBe(inside)
        },
      ),
    )
  })

  it('costs no more for a wall of digits than for a short number', () => {
    const wall = '9'.repeat(4_000_000)
    const before = process.cpuUsage()
    for (let round = 0; round < 1000; round++) isWholeText(wall)
    const used = process.cpuUsage(before)
    // a scan of the whole text would take seconds of CPU (4 GB of characters); a look at its length, microseconds
    expect((used.user + used.system) / 1000).toBeLessThan(500)
  })
})
