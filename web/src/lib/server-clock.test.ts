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
})
