import { describe, expect, it } from 'vitest'
import { RECONNECT, seededRandom } from '@tradegate/shared'
import { DROP_CLOSE_CODE, fixedInterval, webClientBackoff } from './reconnect-policy'

describe('reconnect policies of the storm', () => {
  it("with the web client's back-off, spreads a dropped fleet's first reconnects over at most a second", () => {
    const policy = webClientBackoff()
    const random = seededRandom(1).next
    const first = Array.from({ length: 1000 }, () => policy.forSocket(random).next(60_000, DROP_CLOSE_CODE))
    expect(Math.max(...first)).toBeLessThan(1000)
    // full jitter: the first waits cover the whole second, not one moment
    expect(Math.min(...first)).toBeLessThan(100)
    expect(Math.max(...first)).toBeGreaterThan(900)
  })

  it('doubles the window with each failed attempt up to 30 s, keeping a floor once attempts keep failing', () => {
    const socket = webClientBackoff().forSocket(() => 0)
    // the drop, then attempts that never opened, in windows of 1, 2, 4, 8, 16, 30 s; from the third
    // failure in a row the client waits at least a quarter of its window, so a refusing gateway is not
    // hammered even by the luckiest draw
    const waits = [
      socket.next(60_000, DROP_CLOSE_CODE),
      ...Array.from({ length: 7 }, () => socket.next(0, undefined)),
    ]
    expect(waits).toEqual([0, 0, 0, 2000, 4000, 7500, 7500, 7500])
    const busiest = webClientBackoff().forSocket(() => 0.999_999)
    const capped = Array.from({ length: 12 }, () => busiest.next(0, undefined))
    expect(Math.max(...capped)).toBeLessThan(RECONNECT.capMs)
    expect(capped.at(-1)).toBe(RECONNECT.capMs - 1)
  })

  it('gives every socket its own back-off, as every browser tab keeps its own', () => {
    const policy = webClientBackoff()
    const first = policy.forSocket(() => 0.5)
    for (let failures = 0; failures < 5; failures++) first.next(0, undefined)
    expect(policy.forSocket(() => 0.5).next(60_000, DROP_CLOSE_CODE)).toBe(500)
  })

  it('with the fixed interval, sends every socket back at the same moment', () => {
    const socket = fixedInterval(3000).forSocket(Math.random)
    expect(new Set([0, 1, 5].map(() => socket.next(0, undefined)))).toEqual(new Set([3000]))
  })
})
