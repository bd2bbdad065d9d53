import { describe, expect, it } from 'vitest'
import { LISTED_LANGUAGES, STORAGE_KEYS, type LanguageEntry } from '@tradegate/shared'
import { chooseLanguage, i18n, selectableLanguages, setLanguage } from './i18n'

const entry = (code: string, isDefault: 'Y' | 'N'): LanguageEntry => ({
  dictLabel: code,
  dictValue: code,
  imgUrl: '',
  isDefault,
  status: 0,
})

describe('chooseLanguage', () => {
  it('prefers the saved language', () => {
    expect(chooseLanguage('ja', LISTED_LANGUAGES, ['de-DE'])).toBe('ja')
  })
  it("then the browser's first preferred language a bundle exists for, by its base code", () => {
    expect(chooseLanguage(null, LISTED_LANGUAGES, ['en-US', 'en'])).toBe('en')
    expect(chooseLanguage(null, LISTED_LANGUAGES, ['gsw-CH', 'de-CH', 'fr'])).toBe('de')
    expect(chooseLanguage(null, LISTED_LANGUAGES, ['ar-EG'])).toBe('ar')
  })
  it('opens in English when the browser names languages and no bundle matches any of them', () => {
    expect(chooseLanguage(null, LISTED_LANGUAGES, ['nl-NL', 'nl'])).toBe('en')
    expect(chooseLanguage(null, LISTED_LANGUAGES, ['sw-KE', 'nl'])).toBe('en')
    expect(chooseLanguage(null, [entry('en', 'N'), entry('ko', 'Y')], ['nl'])).toBe('en')
  })
  it('takes the entry marked default only when the browser names no language, zh in the built-in list', () => {
    expect(chooseLanguage(null, LISTED_LANGUAGES, [])).toBe('zh')
    expect(chooseLanguage(null, [entry('en', 'N'), entry('ko', 'Y')], [])).toBe('ko')
  })
  it('falls back to English when nothing is marked default', () => {
    expect(chooseLanguage(null, [entry('ja', 'N')], [])).toBe('en')
    expect(chooseLanguage('', [], [])).toBe('en')
  })
})

describe('setLanguage', () => {
  it('loads the bundle, sets <html lang> and right-to-left for Arabic, and saves the choice', async () => {
    await setLanguage('ar', { languageId: 3 })
    expect(document.documentElement.lang).toBe('ar')
    expect(document.documentElement.dir).toBe('rtl')
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('ar')
    expect(localStorage.getItem(STORAGE_KEYS.languageId)).toBe('3')
    await setLanguage('zh', { save: false })
    expect(document.documentElement.dir).toBe('ltr')
    expect(i18n.t('tabBar.home')).toBe('首页')
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('ar')
  })

  it('uses the English messages for a language that has no bundle', async () => {
    await setLanguage('xx', { save: false })
    expect(i18n.language).toBe('xx')
    expect(i18n.t('tabBar.home')).toBe('Home')
    expect(document.documentElement.lang).toBe('xx')
  })
})

describe('selectableLanguages', () => {
  it('offers every bundle language: the 13 listed ones first, then ar, da and tr', () => {
    const codes = selectableLanguages(LISTED_LANGUAGES).map((entry) => entry.dictValue)
    expect(codes).toHaveLength(16)
    expect(codes.slice(0, 13)).toEqual(LISTED_LANGUAGES.map((entry) => entry.dictValue))
    expect(codes.slice(13)).toEqual(['ar', 'da', 'tr'])
  })
})
