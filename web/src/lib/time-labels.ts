import type { TickMarkType, Time } from 'lightweight-charts'
import { formatDateTime, localDateTime, type DateShape } from './intl'

// The chart draws candle times in the user's zone and the language's way of writing a date, like
// every other time on the page; left alone, lightweight-charts labels them in UTC and in English.

// Indexed by TickMarkType (Year, Month, DayOfMonth, Time, TimeWithSeconds). Only its type is imported:
// the library's module reads `navigator` when loaded, which unit tests in Node do not have. A day or a
// month is written with the month's name (5. Dez., Dez. 2026), never as a numeric guess.
const TICK_LABELS: ReadonlyArray<{ shape: DateShape } | { pattern: string }> = [
  { pattern: 'YYYY' },
  { shape: 'monthYear' },
  { shape: 'dayMonth' },
  { pattern: 'HH:mm' },
  { pattern: 'HH:mm:ss' },
]

/** Seconds since the epoch, as the chart's UTCTimestamp times are. */
function secondsOf(time: Time): number {
  return typeof time === 'number' ? time : Number.NaN
}

/** Axis labels: the year, month, day or time of a tick mark in the user's zone and language. */
export function tickMarkLabel(time: Time, type: TickMarkType, timeZone: string, locale: string): string {
  const label = TICK_LABELS[type] ?? TICK_LABELS[3]!
  const ms = secondsOf(time) * 1000
  return 'shape' in label
    ? localDateTime(ms, timeZone, locale, label.shape)
    : formatDateTime(ms, timeZone, label.pattern)
}

/** The crosshair's label: the full date and minute of the candle under the pointer. */
export function crosshairTimeLabel(time: Time, timeZone: string, locale: string): string {
  return localDateTime(secondsOf(time) * 1000, timeZone, locale, 'dateMinute')
}
