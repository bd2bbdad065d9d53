import { TIME_FORMAT, showPrice } from '@tradegate/shared'

// Numbers and dates in the user's locale and time zone. Amounts stay decimal strings end to end:
// Intl.NumberFormat formats a numeric string exactly, without turning it into a float.

const numberFormats = new Map<string, Intl.NumberFormat>()

function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const id = `${locale}|${decimals}`
  let format = numberFormats.get(id)
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
        numberingSystem: 'latn',
      })
    } catch {
      format = new Intl.NumberFormat('en', {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      })
    }
    numberFormats.set(id, format)
  }
  return format
}

/**
 * How each bundled language writes a decimal in Latin digits, as Intl.NumberFormat writes it (held to it
 * by intl.test.ts in Node and by test/browser/decimal-symbols.test.ts in Chromium): the page's first Intl
 * formatter loads ICU's number data, a task of about 25 ms on a desktop and four times that on a phone, and
 * the trade and market screens show figures from their first render. Other languages go through Intl.
 */
interface DecimalSymbols {
  group: string
  decimal: string
  /** the minus sign with any direction mark written before it */
  minus: string
  /** the whole part is grouped from this many digits on (Spanish, Italian and Polish leave 1234 whole) */
  groupFrom: number
}

const POINT: DecimalSymbols = { group: ',', decimal: '.', minus: '-', groupFrom: 4 }
const COMMA: DecimalSymbols = { group: '.', decimal: ',', minus: '-', groupFrom: 4 }
const SPACED: DecimalSymbols = { group: '\u00a0', decimal: ',', minus: '-', groupFrom: 4 }

export const DECIMAL_SYMBOLS: Readonly<Record<string, DecimalSymbols>> = Object.freeze({
  ar: { ...POINT, minus: '\u200e-' },
  da: COMMA,
  de: COMMA,
  en: POINT,
  es: { ...COMMA, groupFrom: 5 },
  fr: { ...SPACED, group: '\u202f' },
  it: { ...COMMA, groupFrom: 5 },
  ja: POINT,
  ko: POINT,
  pl: { ...SPACED, groupFrom: 5 },
  pt: COMMA,
  ru: SPACED,
  th: POINT,
  tr: COMMA,
  vi: COMMA,
  zh: POINT,
})

const GROUPS_OF_THREE = /\B(?=(\d{3})+$)/g

/** Groups an already rounded decimal string for the locale, keeping exactly its decimals. */
export function localiseDecimal(text: string, locale: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text
  // own keys only: a language code never reads Object's own members as symbols
  const symbols = Object.hasOwn(DECIMAL_SYMBOLS, locale) ? DECIMAL_SYMBOLS[locale] : undefined
  const decimals = text.split('.')[1]?.length ?? 0
  if (!symbols) return numberFormat(locale, decimals).format(text as Intl.StringNumericLiteral)
  const negative = text.startsWith('-')
  const [digits = '', fraction] = (negative ? text.slice(1) : text).split('.')
  const whole = digits.replace(/^0+(?=\d)/, '')
  const grouped = whole.length >= symbols.groupFrom ? whole.replace(GROUPS_OF_THREE, symbols.group) : whole
  return (
    (negative ? symbols.minus : '') + grouped + (fraction === undefined ? '' : symbols.decimal + fraction)
  )
}

const compactFormats = new Map<string, Intl.NumberFormat>()

/** A large amount shortened the locale's way (12.35M, 1.2億), for lists where the full figure would not fit. */
export function localiseCompact(text: string, locale: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text
  let format = compactFormats.get(locale)
  if (!format) {
    const options = { notation: 'compact', maximumFractionDigits: 2, numberingSystem: 'latn' } as const
    try {
      format = new Intl.NumberFormat(locale, options)
    } catch {
      format = new Intl.NumberFormat('en', options)
    }
    compactFormats.set(locale, format)
  }
  return format.format(text as Intl.StringNumericLiteral)
}

/** A price by the display rule (by magnitude), grouped for the locale: for the chart's axis. */
export function localisePrice(value: unknown, locale: string): string {
  return localiseDecimal(showPrice(value), locale)
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()

function dateParts(ms: number, timeZone: string): Record<string, string> {
  let format = dateFormats.get(timeZone)
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }
    try {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone })
    } catch {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' })
    }
    dateFormats.set(timeZone, format)
  }
  const parts: Record<string, string> = {}
  for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value
  return parts
}

/** Formats a time by a pattern of YYYY, MM, DD, HH, mm, ss in the given zone (default MM/DD/YYYY). */
export function formatDateTime(
  ms: number,
  timeZone: string,
  pattern: string = `${TIME_FORMAT} HH:mm:ss`,
): string {
  if (!Number.isFinite(ms)) return ''
  const parts = dateParts(ms, timeZone)
  const values: Record<string, string> = {
    YYYY: parts.year ?? '',
    MM: parts.month ?? '',
    DD: parts.day ?? '',
    HH: parts.hour ?? '',
    mm: parts.minute ?? '',
    ss: parts.second ?? '',
  }
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => values[token] ?? token)
}

/**
 * How a moment is written for a reader: the month by name, so no date is a numeric guess (12/05/2026
 * is 5 December to an American and 12 May to a German), hours 0–23, digits as the app's figures.
 */
const DATE_SHAPES = {
  date: { year: 'numeric', month: 'short', day: 'numeric' },
  dateTime: {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  },
  dateMinute: { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  time: { hour: '2-digit', minute: '2-digit', second: '2-digit' },
  dayMonth: { month: 'short', day: 'numeric' },
  monthYear: { year: 'numeric', month: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>

export type DateShape = keyof typeof DATE_SHAPES

const localDateFormats = new Map<string, Intl.DateTimeFormat>()

function localDateFormat(locale: string, timeZone: string, shape: DateShape): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${shape}`
  let format = localDateFormats.get(key)
  if (!format) {
    const options = { ...DATE_SHAPES[shape], hourCycle: 'h23', numberingSystem: 'latn' } as const
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone })
    } catch {
      // an unknown zone (or language tag) is written in UTC rather than not at all
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })
    }
    localDateFormats.set(key, format)
  }
  return format
}

/** A moment in `timeZone` the way `locale` writes it (5. Dez. 2026, 14:03:09; 2026年12月5日 14:03:09). */
export function localDateTime(
  ms: number,
  timeZone: string,
  locale: string,
  shape: DateShape = 'dateTime',
): string {
  if (!Number.isFinite(ms)) return ''
  return localDateFormat(locale, timeZone, shape).format(new Date(ms))
}
