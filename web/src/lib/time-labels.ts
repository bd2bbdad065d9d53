import type { TickMarkType, Time } from 'lightweight-charts'
import { formatDateTime } from './intl'

// The chart draws candle times in the zone and date format the settings name, like every other
// time on the page; left alone, lightweight-charts labels them in UTC.

/** The day-and-month part of the settings' date format, e.g. MM/DD from MM/DD/YYYY. */
function dayPattern(dateFormat: string): string {
  return dateFormat.replace(/[^A-Za-z]*YYYY[^A-Za-z]*/, '') || 'MM/DD'
}

// Indexed by TickMarkType (Year, Month, DayOfMonth, Time, TimeWithSeconds). Only its type is imported:
// the library's module reads `navigator` when loaded, which unit tests in Node do not have.
const TICK_PATTERNS: ReadonlyArray<(dateFormat: string) => string> = [
  () => 'YYYY',
  () => 'YYYY-MM',
  dayPattern,
  () => 'HH:mm',
  () => 'HH:mm:ss',
]

/** Seconds since the epoch, as the chart's UTCTimestamp times are. */
function secondsOf(time: Time): number {
  return typeof time === 'number' ? time : Number.NaN
}

/** Axis labels: the year, month, day or time of a tick mark in the settings' zone. */
export function tickMarkLabel(time: Time, type: TickMarkType, timeZone: string, dateFormat: string): string {
  return formatDateTime(
    secondsOf(time) * 1000,
    timeZone,
    (TICK_PATTERNS[type] ?? TICK_PATTERNS[3]!)(dateFormat),
  )
}

/** The crosshair's label: the full date and minute of the candle under the pointer. */
export function crosshairTimeLabel(time: Time, timeZone: string, dateFormat: string): string {
  return formatDateTime(secondsOf(time) * 1000, timeZone, `${dateFormat} HH:mm`)
}
