import { useTranslation } from 'react-i18next'
import { formatAmount } from '@tradegate/shared'
import { formatDateTime, localiseDecimal, localisePrice } from './intl'
import { useSettings } from './settings'

/** Formatters bound to the page language and the time zone and date format of the settings. */
export function useFormatters() {
  const { i18n } = useTranslation()
  const settings = useSettings()
  const locale = i18n.language || 'en'
  const timeZone = settings.DEFAULT_TIME_ZONE.zoneId
  const pattern = `${settings.TIME_FORMAT} HH:mm:ss`
  return {
    price: (value: unknown) => localisePrice(value, locale),
    amount: (value: unknown, places = 2) => localiseDecimal(formatAmount(value, places), locale),
    dateTime: (ms: number) => formatDateTime(ms, timeZone, pattern),
    date: (ms: number) => formatDateTime(ms, timeZone, settings.TIME_FORMAT),
  }
}
