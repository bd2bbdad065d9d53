import { useTranslation } from 'react-i18next'
import { exactText, formatAmount, precisionText } from '@tradegate/shared'
import { useCoinPrecision } from './coins'
import { localDateTime, localiseCompact, localiseDecimal, localisePrice } from './intl'
import { offsetLabelAt, useTimeZone } from './time-zone'

/**
 * Formatters bound to the page language and the user's time zone; every number goes through
 * Intl.NumberFormat and every date through Intl.DateTimeFormat for the language, so one screen never
 * mixes decimal marks or writes a date the reader could take for another.
 */
export function useFormatters() {
  const { i18n } = useTranslation()
  const precisionOf = useCoinPrecision()
  const locale = i18n.language || 'en'
  const zone = useTimeZone()
  const timeZone = zone.zoneId
  return {
    price: (value: unknown) => localisePrice(value, locale),
    amount: (value: unknown, places = 2) => localiseDecimal(formatAmount(value, places), locale),
    /** an amount of `coin` at the coin's precision, as it is held, sent and settled */
    money: (value: unknown, coin: string) => localiseDecimal(precisionText(value, precisionOf(coin)), locale),
    /**
     * an amount of `coin` to its last digit: as `money` when the coin's places hold it, else with every
     * digit it has (0.0000068 BTC kept by rounding must not read 0.00000)
     */
    exact: (value: unknown, coin: string) => localiseDecimal(exactText(value, precisionOf(coin)), locale),
    /** a plain decimal as written (a limit, a rate), grouped for the language */
    decimal: (value: string) => localiseDecimal(value, locale),
    precisionOf,
    compact: (value: unknown) => localiseCompact(formatAmount(value, 2), locale),
    /** a moment the language's way with its zone, Nov 26, 2026, 12:18:32 UTC+8: a time without one is a guess */
    dateTime: (ms: number) => `${localDateTime(ms, timeZone, locale)} ${offsetLabelAt(ms, timeZone)}`,
    /** the zone's offset at a moment, UTC+8, for a column of times that each leave it out */
    zoneAt: (ms: number) => offsetLabelAt(ms, timeZone),
    /** the zone as the settings' list names it, for when there is no moment to ask about */
    zone: zone.label,
    timeZone,
    /** a day the language's way with the zone whose day it is, 5. Dez. 2026 UTC+8 */
    date: (ms: number) => `${localDateTime(ms, timeZone, locale, 'date')} ${offsetLabelAt(ms, timeZone)}`,
  }
}
