import { useTranslation } from 'react-i18next'
import { formatAmount, precisionText } from '@tradegate/shared'
import { useCoinPrecision } from './coins'
import { formatDateTime, localiseCompact, localiseDecimal, localisePrice } from './intl'
import { useSettings } from './settings'

/**
 * Formatters bound to the page language and the time zone and date format of the settings; every
 * number goes through Intl.NumberFormat for the language, so one screen never mixes decimal marks.
 */
export function useFormatters() {
  const { i18n } = useTranslation()
  const settings = useSettings()
  const precisionOf = useCoinPrecision()
  const locale = i18n.language || 'en'
  const timeZone = settings.DEFAULT_TIME_ZONE.zoneId
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
    dateTime: (ms: number) => formatDateTime(ms, timeZone, pattern),
    date: (ms: number) => formatDateTime(ms, timeZone, settings.TIME_FORMAT),
  }
}
