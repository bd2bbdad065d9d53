import { useLanguage } from './i18n'
import {
  exactText,
  precisionText,
  showBalance,
  showCash,
  showFee,
  showPercent,
  showPnl,
  showPrice,
  showQuantity,
  showFeeRate,
  showRate,
  showValue,
  toDecimal,
} from '@tradegate/shared'
import { useCoinPrecision } from './coins'
import { localDateTime, localiseCompact, localiseDecimal } from './intl'
import { offsetLabelAt, useTimeZone } from './time-zone'

/**
 * Formatters bound to the page language and the user's time zone; every number goes through
 * Intl.NumberFormat and every date through Intl.DateTimeFormat for the language, so one screen never
 * mixes decimal marks or writes a date the reader could take for another. Each kind of figure has its
 * own formatter, which brings it to its places by the one display rule (shared/src/display.ts).
 */
export function useFormatters() {
  const precisionOf = useCoinPrecision()
  const locale = useLanguage() || 'en'
  const zone = useTimeZone()
  const timeZone = zone.zoneId
  return {
    /** a price at the pair's tick places (by magnitude when no pair is in view), rounded */
    price: (value: unknown, tickPlaces?: number) => localiseDecimal(showPrice(value, tickPlaces), locale),
    /** an amount held (available, margin, stake), cut to `places`: never more than is held */
    balance: (value: unknown, places: number) => localiseDecimal(showBalance(value, places), locale),
    /** coins, shares or volume at the pair's lot places, rounded */
    quantity: (value: unknown, lotPlaces: number) => localiseDecimal(showQuantity(value, lotPlaces), locale),
    /** a value in the quote coin (total, worth), rounded to cents */
    value: (value: unknown) => localiseDecimal(showValue(value), locale),
    /** a profit or loss, rounded; unsigned when positive (callers add the + where it reads better) */
    pnl: (value: unknown) => localiseDecimal(showPnl(value), locale),
    fee: (value: unknown) => localiseDecimal(showFee(value), locale),
    /** quote coin paid or received: margin, cost, premium, payout */
    cash: (value: unknown) => localiseDecimal(showCash(value), locale),
    /** a moving rate already in percent (funding), to hundredths of a hundredth */
    rate: (percent: unknown) => localiseDecimal(showRate(percent), locale),
    /** a rate stated as a term, already in percent (a fee rate), as stated: 0.2, not 0.2000 */
    feeRate: (percent: unknown) => localiseDecimal(showFeeRate(percent), locale),
    /** a percentage, rounded to 2 places (a real move under 0.01 shows ±0.01) */
    percent: (value: unknown) => localiseDecimal(showPercent(value), locale),
    /** an amount of `coin` at the coin's precision, as it is held, sent and settled */
    money: (value: unknown, coin: string) => localiseDecimal(precisionText(value, precisionOf(coin)), locale),
    /**
     * an amount of `coin` to its last digit: as `money` when the coin's places hold it, else with every
     * digit it has (0.0000068 BTC kept by rounding must not read 0.00000)
     */
    exact: (value: unknown, coin: string) => localiseDecimal(exactText(value, precisionOf(coin)), locale),
    /** a plain decimal as written (a limit, a rate), grouped for the language */
    decimal: (value: string) => localiseDecimal(value, locale),
    /** an option's strike, a term of its series, at the places it has: 66,250, not 66,250.00 */
    strike: (value: unknown) => localiseDecimal(toDecimal(value).toFixed(), locale),
    precisionOf,
    compact: (value: unknown) => localiseCompact(showValue(value), locale),
    /** a moment the language's way with its zone, Nov 26, 2026, 12:18:32 UTC+8: a time without one is a guess */
    dateTime: (ms: number) => `${localDateTime(ms, timeZone, locale)} ${offsetLabelAt(ms, timeZone)}`,
    /** a moment as its day and its time with the zone, [Nov 26, 2026, 12:18:32 UTC+8], for a cell that may wrap between them */
    dayAndTime: (ms: number): [string, string] => [
      localDateTime(ms, timeZone, locale, 'date'),
      `${localDateTime(ms, timeZone, locale, 'time')} ${offsetLabelAt(ms, timeZone)}`,
    ],
    /** the zone's offset at a moment, UTC+8, for a column of times that each leave it out */
    zoneAt: (ms: number) => offsetLabelAt(ms, timeZone),
    /** the zone as the settings' list names it, for when there is no moment to ask about */
    zone: zone.label,
    timeZone,
    /** a day the language's way with the zone whose day it is, 5. Dez. 2026 UTC+8 */
    date: (ms: number) => `${localDateTime(ms, timeZone, locale, 'date')} ${offsetLabelAt(ms, timeZone)}`,
  }
}
