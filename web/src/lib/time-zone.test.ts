import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, TIME_ZONES } from '@tradegate/shared'
import { offsetLabelAt, shownZone, zoneLabel } from './time-zone'

describe('zoneLabel', () => {
  it.each([
    ['+08:00', 'UTC+8'],
    ['-03:30', 'UTC-3:30'],
    ['+05:45', 'UTC+5:45'],
    ['+00:00', 'UTC'],
    ['-12:00', 'UTC-12'],
    ['+14:00', 'UTC+14'],
  ])('%s is %s', (offset, label) => {
    expect(zoneLabel(offset)).toBe(label)
  })
})

describe('shownZone', () => {
  it('is the default +8 until the user picks one', () => {
    expect(shownZone(null, DEFAULT_SETTINGS)).toEqual({ zoneId: 'Asia/Hong_Kong', label: 'UTC+8' })
  })

  it('is the picked zone of the list, with its label', () => {
    const utc = TIME_ZONES.find((zone) => zone.offSet === '+00:00')!
    expect(shownZone(utc.zoneId, DEFAULT_SETTINGS)).toEqual({ zoneId: utc.zoneId, label: 'UTC' })
  })

  it('falls back to the default when the pick is no longer listed', () => {
    expect(shownZone('Mars/Olympus', DEFAULT_SETTINGS).zoneId).toBe('Asia/Hong_Kong')
  })

  it('labels all 38 listed zones distinctly', () => {
    const labels = TIME_ZONES.map((zone) => shownZone(zone.zoneId, DEFAULT_SETTINGS).label)
    expect(TIME_ZONES).toHaveLength(38)
    expect(new Set(labels).size).toBe(38)
  })
})

describe('offsetLabelAt', () => {
  it('labels a moment with the offset its zone had then, daylight saving included', () => {
    const winter = Date.UTC(2026, 0, 15)
    const summer = Date.UTC(2026, 6, 15)
    expect(offsetLabelAt(winter, 'Asia/Hong_Kong')).toBe('UTC+8')
    expect(offsetLabelAt(winter, 'Europe/London')).toBe('UTC')
    expect(offsetLabelAt(summer, 'Europe/London')).toBe('UTC+1')
    expect(offsetLabelAt(summer, 'Asia/Kathmandu')).toBe('UTC+5:45')
  })
})
