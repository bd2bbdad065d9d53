// Withdrawal windows and daily counts follow the platform's time zone, not the server's.

const DAY_MS = 86_400_000

export function localDayStart(now: number, offsetHours: number): number {
  const shift = offsetHours * 3600_000
  return Math.floor((now + shift) / DAY_MS) * DAY_MS - shift
}

/** "HH:MM:SS" of the moment in the given zone. */
export function localTimeOfDay(now: number, offsetHours: number): string {
  return new Date(now + offsetHours * 3600_000).toISOString().slice(11, 19)
}

/** Inclusive start, exclusive end; equal ends mean all day, an end before the start runs over midnight. */
export function withinWindow(time: string, start: string, end: string): boolean {
  if (start === end) return true
  return start < end ? time >= start && time < end : time >= start || time < end
}
