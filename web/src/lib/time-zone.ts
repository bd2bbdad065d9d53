import { useSyncExternalStore } from 'react'
import { STORAGE_KEYS, type Settings } from '@tradegate/shared'
import { createStore } from './external-store'
import { useSettings } from './settings'
import { readText, writeText } from './storage'

// The zone every time on the page is shown in: the user's pick from the settings' list of zones,
// else the settings' default (Hong Kong, +8). Kept on this device.

export interface ShownZone {
  zoneId: string
  /** the zone as a time carries it: UTC+8, UTC-3:30, UTC */
  label: string
}

/** '+08:00' -> 'UTC+8', '-03:30' -> 'UTC-3:30', '+00:00' -> 'UTC' */
export function zoneLabel(offset: string): string {
  const match = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(offset.trim())
  if (!match) return 'UTC'
  const hours = Number(match[2])
  const minutes = match[3] && match[3] !== '00' ? `:${match[3]}` : ''
  if (hours === 0 && !minutes) return 'UTC'
  return `UTC${match[1]}${hours}${minutes}`
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>()

/**
 * The zone's offset at one moment, as a time carries it (UTC+8, UTC+5:30, UTC): read from Intl, so a
 * zone's daylight saving time is labelled as the hour it shows.
 */
export function offsetLabelAt(ms: number, timeZone: string): string {
  let format = offsetFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' })
    offsetFormats.set(timeZone, format)
  }
  const name = format.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT'
  // some ICU builds write zero as GMT+0
  return name.replace(/^GMT/, 'UTC').replace(/^UTC[+-]0$/, 'UTC')
}

/** The picked zone when the settings still list it, else the settings' default. */
export function shownZone(
  picked: string | null,
  settings: Pick<Settings, 'TIME_ZONES' | 'DEFAULT_TIME_ZONE'>,
): ShownZone {
  const listed = settings.TIME_ZONES.find((zone) => zone.zoneId === picked)
  if (listed) return { zoneId: listed.zoneId, label: zoneLabel(listed.offSet) }
  const fallback = settings.DEFAULT_TIME_ZONE
  return { zoneId: fallback.zoneId, label: zoneLabel(fallback.label) }
}

const pickedStore = createStore<string | null>(readText(STORAGE_KEYS.timeZone))

export function pickTimeZone(zoneId: string): void {
  writeText(STORAGE_KEYS.timeZone, zoneId)
  pickedStore.set(zoneId)
}

/** The zone times are shown in, following the user's pick at once. */
export function useTimeZone(): ShownZone {
  const settings = useSettings()
  const picked = useSyncExternalStore(pickedStore.subscribe, pickedStore.get, pickedStore.get)
  return shownZone(picked, settings)
}
