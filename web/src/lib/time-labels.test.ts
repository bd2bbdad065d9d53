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
    expect(tickMarkLabel(seconds, TickMarkType.Time, 'Asia/Hong_Kong', 'MM/DD/YYYY')).toBe('00:04')
    expect(tickMarkLabel(seconds, TickMarkType.Time, 'UTC', 'MM/DD/YYYY')).toBe('16:04')
    expect(tickMarkLabel(seconds, TickMarkType.TimeWithSeconds, 'Asia/Hong_Kong', 'MM/DD/YYYY')).toBe(
      '00:04:09',
    )
  })

  it('labels days, months and years by the settings date format', () => {
    expect(tickMarkLabel(seconds, TickMarkType.DayOfMonth, 'Asia/Hong_Kong', 'MM/DD/YYYY')).toBe('01/06')
    expect(tickMarkLabel(seconds, TickMarkType.DayOfMonth, 'Asia/Hong_Kong', 'YYYY-MM-DD')).toBe('01-06')
    expect(tickMarkLabel(seconds, TickMarkType.Month, 'America/New_York', 'MM/DD/YYYY')).toBe('2026-01')
    expect(tickMarkLabel(seconds, TickMarkType.Year, 'UTC', 'MM/DD/YYYY')).toBe('2026')
  })

  it('gives the crosshair the full date and minute', () => {
    expect(crosshairTimeLabel(seconds, 'Asia/Hong_Kong', 'MM/DD/YYYY')).toBe('01/06/2026 00:04')
  })

  it('falls back to UTC for an unknown zone and to nothing for a non-numeric time', () => {
    expect(tickMarkLabel(seconds, TickMarkType.Time, 'Mars/Olympus', 'MM/DD/YYYY')).toBe('16:04')
    expect(crosshairTimeLabel('2026-01-05', 'UTC', 'MM/DD/YYYY')).toBe('')
  })
})
