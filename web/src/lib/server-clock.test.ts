import { describe, expect, it } from 'vitest'
import { ServerClock } from './server-clock'

describe('ServerClock', () => {
  it('is the device clock until a stamp arrives', () => {
    expect(new ServerClock().now(1_000)).toBe(1_000)
  })

  it('follows an exchange an hour ahead of the device, from the fastest frame', () => {
    const clock = new ServerClock()
    const hour = 3_600_000
    // stamped at the exchange, then 80, 15 and 40 ms on the way
    clock.note(hour + 10_000, 10_080)
    clock.note(hour + 11_000, 11_015)
    clock.note(hour + 12_000, 12_040)
    expect(clock.offset()).toBe(hour - 15)
    expect(clock.now(20_000)).toBe(hour + 20_000 - 15)
  })

  it('follows a device clock set back, once the samples from before age out', () => {
    const clock = new ServerClock()
    clock.note(100_000, 100_010)
    // the device clock jumps back a minute: the exchange now looks a minute ahead
    clock.note(101_000, 41_010)
    expect(clock.offset()).toBe(59_990)
    clock.note(140_000, 80_010)
    expect(clock.now(80_010)).toBe(140_000)
  })

  it('ignores a missing or zero stamp', () => {
    const clock = new ServerClock()
    clock.note(0, 5_000)
    clock.note(Number.NaN, 5_000)
    expect(clock.offset()).toBe(0)
  })

  it('keeps its estimate through a silence longer than the window: an old stamp replayed after it does not drag it back', () => {
    const clock = new ServerClock()
    clock.note(100_000, 100_005)
    // a minute of nothing, then a snapshot stamped before the silence
    clock.note(100_000, 160_005)
    expect(clock.offset()).toBe(-5)
    expect(clock.now(160_005)).toBe(160_000)
  })

  describe("before the first frame, from answers' Date headers", () => {
    const minutes = (count: number) => count * 60_000

    it('keeps the device clock when the dates agree with it', () => {
      const clock = new ServerClock()
      // device and server agree; the headers drop the milliseconds
      clock.noteAnswer(100_000, 100_200, 100_260)
      clock.noteAnswer(101_000, 101_700, 101_740)
      expect(clock.offset()).toBe(0)
    })

    it('corrects a device clock five minutes behind to within a second, never past the truth', () => {
      const clock = new ServerClock()
      const truth = minutes(5)
      // made at server 500_950 (Date 500_000), sent at device 200_930, answered at 200_980
      clock.noteAnswer(500_000, 200_930, 200_980)
      expect(clock.offset()).toBe(truth - 980)
      // a second answer made early in its second narrows it: made at 502_010, answered 20 ms later
      clock.noteAnswer(502_000, 201_990, 202_030)
      expect(clock.offset()).toBe(truth - 30)
    })

    it('corrects a device clock five minutes ahead to within a second', () => {
      const clock = new ServerClock()
      const truth = -minutes(5)
      // sent at device 800_000 (server 500_000), made at server 500_400, answered at device 800_450
      clock.noteAnswer(500_000, 800_000, 800_450)
      expect(clock.offset()).toBeGreaterThanOrEqual(truth)
      expect(clock.offset()).toBeLessThanOrEqual(truth + 1000)
    })

    it('gives way to the first frame, whose stamp counts milliseconds', () => {
      const clock = new ServerClock()
      clock.noteAnswer(500_000, 200_000, 200_040)
      clock.note(500_100, 200_110)
      expect(clock.offset()).toBe(minutes(5) - 10)
    })

    it('follows the latest answer when the device clock moves between answers', () => {
      const clock = new ServerClock()
      clock.noteAnswer(500_000, 200_000, 200_040)
      // the device's clock is set right: the new bracket holds 0 and no longer overlaps the old one
      clock.noteAnswer(501_000, 501_100, 501_140)
      expect(clock.offset()).toBe(0)
    })

    it('ignores a missing date and an answer that came before it was sent', () => {
      const clock = new ServerClock()
      clock.noteAnswer(Number.NaN, 200_000, 200_040)
      clock.noteAnswer(500_000, 200_040, 200_000)
      expect(clock.offset()).toBe(0)
    })
  })
})
