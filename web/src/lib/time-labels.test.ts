import { describe, expect, it } from 'vitest'
import type { TickMarkType as Tick, UTCTimestamp } from 'lightweight-charts'
import { crosshairTimeLabel, tickMarkLabel } from './time-labels'

// lightweight-charts' TickMarkType values; its module cannot load in Node to provide them
const TickMarkType = {
  Year: 0 as Tick,
  Month: 1 as Tick,
  DayOfMonth: 2 as Tick,
  Time: 3 as Tick,
  TimeWithSeconds: 4 as Tick,
}

// 2026-01-05 16:04:09 UTC, which is 2026-01-06 00:04 in Hong Kong
const seconds = (Date.UTC(2026, 0, 5, 16, 4, 9) / 1000) as UTCTimestamp

describe('chart time labels', () => {
  it('labels ticks in the settings zone, not UTC', () => {
    expect(tickMarkLabel(seconds, TickMarkType.Time, 'Asia/Hong_Kong', 'en')).toBe('00:04')
    expect(tickMarkLabel(seconds, TickMarkType.Time, 'UTC', 'en')).toBe('16:04')
    expect(tickMarkLabel(seconds, TickMarkType.TimeWithSeconds, 'Asia/Hong_Kong', 'en')).toBe('00:04:09')
  })

  it("labels days and months the language's way, with the month by name", () => {
    expect(tickMarkLabel(seconds, TickMarkType.DayOfMonth, 'Asia/Hong_Kong', 'en')).toBe('Jan 6')
    expect(tickMarkLabel(seconds, TickMarkType.DayOfMonth, 'Asia/Hong_Kong', 'de')).toBe('6. Jan.')
    expect(tickMarkLabel(seconds, TickMarkType.DayOfMonth, 'Asia/Hong_Kong', 'ja')).toBe('1月6日')
    expect(tickMarkLabel(seconds, TickMarkType.Month, 'America/New_York', 'en')).toBe('Jan 2026')
    expect(tickMarkLabel(seconds, TickMarkType.Year, 'UTC', 'en')).toBe('2026')
  })

  it('gives the crosshair the full date and minute', () => {
    expect(crosshairTimeLabel(seconds, 'Asia/Hong_Kong', 'en')).toBe('Jan 6, 2026, 00:04')
    expect(crosshairTimeLabel(seconds, 'Asia/Hong_Kong', 'de')).toBe('6. Jan. 2026, 00:04')
  })

  it('falls back to UTC for an unknown zone and to nothing for a non-numeric time', () => {
    expect(tickMarkLabel(seconds, TickMarkType.Time, 'Mars/Olympus', 'en')).toBe('16:04')
    expect(crosshairTimeLabel('2026-01-05', 'UTC', 'en')).toBe('')
  })
})
