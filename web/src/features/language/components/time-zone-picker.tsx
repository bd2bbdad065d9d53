import { useId } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useSettings } from '../../../lib/settings'
import { pickTimeZone, useTimeZone, zoneLabel } from '../../../lib/time-zone'

/** The zone every time in the app is shown in, from the settings' list of zones; kept on this device. */
export function TimeZonePicker() {
  const { t } = useTranslation()
  const zones = useSettings().TIME_ZONES
  const shown = useTimeZone()
  const id = useId()
  return (
    <div className="field time-zone-picker">
      <label className="field-label" htmlFor={id}>
        {t('language.timeZone')}
      </label>
      <span className="field-control">
        <select
          id={id}
          value={shown.zoneId}
          onChange={(event) => pickTimeZone(event.target.value)}
          aria-describedby={`${id}-hint`}
          data-testid="time-zone"
        >
          {zones.map((zone) => (
            <option key={zone.zoneId} value={zone.zoneId}>
              {zoneLabel(zone.offSet)} · {zone.zoneId.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </span>
      <p className="field-label" id={`${id}-hint`}>
        {t('language.timeZoneHint', { zone: shown.label })}
      </p>
    </div>
  )
}
