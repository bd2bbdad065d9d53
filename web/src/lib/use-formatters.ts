import { useTranslation } from 'react-i18next'
import { formatAmount, precisionText } from '@tradegate/shared'
import { useCoinPrecision } from './coins'
import { formatDateTime, localiseCompact, localiseDecimal, localisePrice } from './intl'
import { useSettings } from './settings'
import { offsetLabelAt, useTimeZone } from './time-zone'

/**
 * Formatters bound to the page language, the user's time zone and the settings' date format; every
 * number goes through Intl.NumberFormat for the language, so one screen never mixes decimal marks.
 */
export function useFormatters() {
  const { i18n } = useTranslation()
  const settings = useSettings()
  const precisionOf = useCoinPrecision()
  const locale = i18n.language || 'en'
  const zone = useTimeZone()
  const timeZone = zone.zoneId
  const pattern = `${settings.TIME_FORMAT} HH:mm:ss`
  return {
    price: (value: unknown) => localisePrice(value, locale),
    amount: (value: unknown, places = 2) => localiseDecimal(formatAmount(value, places), locale),
    /** an amount of `coin` at the coin's precision, as it is held, sent and settled */
    money: (value: unknown, coin: string) => localiseDecimal(precisionText(value, precisionOf(coin)), locale),
    /** a plain decimal as written (a limit, a rate), grouped for the language */
    decimal: (value: string) => localiseDecimal(value, locale),
    precisionOf,
    compact: (value: unknown) => localiseCompact(formatAmount(value, 2), locale),
    /** a moment with its zone, 11/26/2026 12:18:32 UTC+8: a time without one is a guess */
    dateTime: (ms: number) => `${formatDateTime(ms, timeZone, pattern)} ${offsetLabelAt(ms, timeZone)}`,
    /** the zone's offset at a moment, UTC+8, for a column of times that each leave it out */
    zoneAt: (ms: number) => offsetLabelAt(ms, timeZone),
    /** the zone as the settings' list names it, for when there is no moment to ask about */
    zone: zone.label,
    timeZone,
    date: (ms: number) => formatDateTime(ms, timeZone, settings.TIME_FORMAT),
  }
}
