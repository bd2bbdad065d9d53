import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'
import {
  DECIMAL_SYMBOLS,
  formatDateTime,
  localDateTime,
  localiseCompact,
  localiseDecimal,
  localisePrice,
} from './intl'

describe('formatDateTime', () => {
  const ms = Date.UTC(2026, 0, 5, 16, 4, 9)
  it('defaults to MM/DD/YYYY with a 24-hour time in the given zone', () => {
    expect(formatDateTime(ms, 'Asia/Hong_Kong')).toBe('01/06/2026 00:04:09')
    expect(formatDateTime(ms, 'America/New_York')).toBe('01/05/2026 11:04:09')
  })
  it('follows another pattern and survives an unknown zone', () => {
    expect(formatDateTime(ms, 'UTC', 'YYYY-MM-DD')).toBe('2026-01-05')
    expect(formatDateTime(ms, 'Not/AZone', 'HH:mm')).toBe('16:04')
    expect(formatDateTime(Number.NaN, 'UTC')).toBe('')
  })
})

describe('localised numbers', () => {
  it('groups digits for the locale without changing a single decimal', () => {
    expect(localiseDecimal('1234567.123456789012345678', 'en')).toBe('1,234,567.123456789012345678')
    expect(localiseDecimal('1234567.50', 'de')).toBe('1.234.567,50')
    expect(localiseDecimal('-0.000123', 'en')).toBe('-0.000123')
  })
  it('writes every decimal in every bundled language exactly as Intl.NumberFormat does, without calling it', () => {
    expect(Object.keys(DECIMAL_SYMBOLS).sort()).toEqual([...BUNDLE_LANGUAGES].sort())
    const decimal = fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^\d{1,24}$/),
        fc.option(fc.stringMatching(/^\d{1,18}$/), { nil: undefined }),
      )
      .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`)
    // one formatter per language and scale: building one costs far more than a format, and 5,000 of
    // them made this test's time a matter of the machine's load
    const formatters = new Map<string, Intl.NumberFormat>()
    const intlFor = (language: string, decimals: number) => {
      const key = `${language}:${decimals}`
      let intl = formatters.get(key)
      if (!intl) {
        intl = new Intl.NumberFormat(language, {
          minimumFractionDigits: decimals,
          maximumFractionDigits: decimals,
          numberingSystem: 'latn',
        })
        formatters.set(key, intl)
      }
      return intl
    }
    fc.assert(
      fc.property(decimal, fc.constantFrom(...BUNDLE_LANGUAGES), (text, language) => {
        const decimals = text.split('.')[1]?.length ?? 0
        const intl = intlFor(language, decimals)
        expect(localiseDecimal(text, language)).toBe(intl.format(text as Intl.StringNumericLiteral))
      }),
      { numRuns: 5000 },
    )
  })
  it('goes through Intl for a language outside the table, whatever its code', () => {
    expect(localiseDecimal('1234.5', 'constructor')).toBe(new Intl.NumberFormat('en').format(1234.5))
    expect(localiseDecimal('1234.5', 'hi')).toBe('1,234.5')
  })
  it('formats prices by the display rule first (rounded, 2 decimals from 100)', () => {
    expect(localisePrice('65432.999', 'en')).toBe('65,433.00')
    expect(localisePrice('65432.994', 'en')).toBe('65,432.99')
    expect(localisePrice('', 'en')).toBe('0.00')
    expect(localisePrice('not a number', 'fr')).toBe('0,00')
  })
})

describe('compact amounts', () => {
  it('shortens large volumes with the locale suffixes', () => {
    expect(localiseCompact('92703609175371.00', 'en')).toBe('92.7T')
    expect(localiseCompact('1234567890.12', 'en')).toBe('1.23B')
    expect(localiseCompact('12345678.00', 'en')).toBe('12.35M')
    expect(localiseCompact('4321.00', 'en')).toBe('4.32K')
    expect(localiseCompact('12.50', 'en')).toBe('12.5')
    expect(localiseCompact('12345678.00', 'de')).toBe('12,35\u00a0Mio.')
    expect(localiseCompact('123456789.00', 'ja')).toBe('1.23億')
    // Arabic keeps western digits, as every other figure of the app does
    expect(localiseCompact('12345678.00', 'ar')).toMatch(/^12[.,٫]35\s?مليون$/)
  })
})

describe('localDateTime', () => {
  // 5 December 2026, 06:03:09 UTC: 14:03:09 in Hong Kong
  const ms = Date.UTC(2026, 11, 5, 6, 3, 9)
  it("writes a moment the language's way with the month by name, never a numeric guess", () => {
    expect(localDateTime(ms, 'Asia/Hong_Kong', 'en')).toBe('Dec 5, 2026, 14:03:09')
    // a German reads the day first: 12/05/2026 would have told him 12 May
    expect(localDateTime(ms, 'Asia/Hong_Kong', 'de')).toBe('5. Dez. 2026, 14:03:09')
    expect(localDateTime(ms, 'Asia/Hong_Kong', 'ja')).toBe('2026年12月5日 14:03:09')
    expect(localDateTime(ms, 'Asia/Hong_Kong', 'pl', 'date')).toBe('5 gru 2026')
    // Arabic text with the app's Latin digits, as its figures
    expect(localDateTime(ms, 'UTC', 'ar', 'date')).toBe('5 ديسمبر 2026')
  })

  it('falls back to UTC for an unknown zone and to nothing for no time', () => {
    expect(localDateTime(ms, 'Not/AZone', 'en')).toBe('Dec 5, 2026, 06:03:09')
    expect(localDateTime(Number.NaN, 'UTC', 'en')).toBe('')
  })
})
