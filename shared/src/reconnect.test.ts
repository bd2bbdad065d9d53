import { describe, expect, it } from 'vitest'
import { WS_CLOSE } from './protocol'
import { Backoff, RECONNECT, closeAsksToWait, reconnectDelay } from './reconnect'

describe('reconnectDelay', () => {
  // attempt, random value, wait in ms: the window doubles from 1 s and stops at 30 s
  it.each([
    [0, 0, 0],
    [0, 0.5, 500],
    [0, 0.999, 999],
    [1, 0.5, 1000],
    [1, 0.999, 1998],
    [2, 0.25, 1000],
    [3, 0.5, 4000],
    [4, 0.5, 8000],
    [4, 0.999, 15_984],
    [5, 0.5, 15_000],
    [5, 0.999, 29_970],
    [6, 0.999, 29_970],
    [50, 0.5, 15_000],
    [1000, 0.999, 29_970],
  ])('retry %i with random %f waits %i ms', (attempt, random, wait) => {
    expect(reconnectDelay(attempt, random)).toBe(wait)
  })

  it.each([
    // a floor (the gateway asked to wait) lifts the low end; the window still caps it
    [3, 0, 5000, 5000],
    [3, 0.5, 5000, 6500],
    [3, 0.999, 5000, 7997],
    [0, 0.5, 5000, 1000],
    [10, 0, 5000, 5000],
  ])('retry %i with random %f and floor %i ms waits %i ms', (attempt, random, floor, wait) => {
    expect(reconnectDelay(attempt, random, RECONNECT, floor)).toBe(wait)
  })

  it('keeps every wait inside [0, cap] for values out of range', () => {
    expect(reconnectDelay(-3, 0.5)).toBe(500)
    expect(reconnectDelay(2, 1.5)).toBe(4000)
    expect(reconnectDelay(2, -1)).toBe(0)
  })
})

describe('closeAsksToWait', () => {
  it.each([
    [WS_CLOSE.tryAgainLater, true],
    [WS_CLOSE.policyViolation, true],
    [WS_CLOSE.tooLarge, true],
    [WS_CLOSE.goingAway, false],
    [1006, false],
    [1000, false],
    [undefined, false],
  ])('close code %s: %s', (code, waits) => {
    expect(closeAsksToWait(code)).toBe(waits)
  })
})

describe('Backoff', () => {
  const half = () => 0.5
  const lost = RECONNECT.stableMs

  it('widens the window after every failure, from the first window after a socket that had stayed open', () => {
    const backoff = new Backoff(RECONNECT, half)
    const waits = [lost, 5000, 5000, 5000, 5000, 5000].map((openForMs) => backoff.next(openForMs, 1006))
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 15_000])
    expect(backoff.next(RECONNECT.stableMs - 1, 1001)).toBe(15_000)
    expect(backoff.next(RECONNECT.stableMs, 1001)).toBe(500)
  })

  it('keeps a quarter of the window as a floor once three sockets in a row failed at once', () => {
    const backoff = new Backoff(RECONNECT, half)
    // a socket that opened and closed within a second counts as failed at once, like a refused one
    const waits = [lost, 0, 150, 0, 0, 0].map((openForMs) => backoff.next(openForMs, 1006))
    expect(waits).toEqual([500, 1000, 2000, 5000, 10_000, 18_750])
  })

  it('never tries more than eight times in 30 s, even when every draw is the shortest', () => {
    const backoff = new Backoff(RECONNECT, () => 0)
    const tries: number[] = []
    let at = backoff.next(lost, 1001)
    while (at <= 30_000) {
      tries.push(at)
      at += backoff.next(0, 1006)
    }
    expect(tries).toEqual([0, 0, 0, 2000, 6000, 13_500, 21_000, 28_500])
  })

  it('waits at least the busy floor, in a wider window, when the gateway asks to wait', () => {
    const backoff = new Backoff(RECONNECT, half)
    expect(backoff.next(lost, WS_CLOSE.tryAgainLater)).toBe(6500)
    expect(backoff.asksToWait).toBe(true)
    expect(backoff.next(5000, 1006)).toBe(8000)
    expect(backoff.asksToWait).toBe(false)
  })
})
