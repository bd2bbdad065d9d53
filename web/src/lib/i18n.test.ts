import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LISTED_LANGUAGES, STORAGE_KEYS, type LanguageEntry } from '@tradegate/shared'
import { chooseLanguage, i18n, selectableLanguages, setLanguage, useTranslation } from './i18n'

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

describe('useTranslation', () => {
  function Label({ name, unit }: { name?: string; unit?: string }) {
    const { t } = useTranslation()
    return createElement('p', null, name ? t('common.withUnit', { name, unit }) : t('tabBar.home'))
  }
  const render = (props: { name?: string; unit?: string } = {}) =>
    renderToString(createElement(Label, props)).replace(/<\/?p>/g, '')

  afterEach(() => vi.restoreAllMocks())

  it("renders the current language's text, and the new language's after a switch and back", async () => {
    await setLanguage('en', { save: false })
    expect(render()).toBe('Home')
    await setLanguage('de', { save: false })
    expect(render()).toBe('Start')
    await setLanguage('en', { save: false })
    expect(render()).toBe('Home')
  })

  it('fills in the values of each call anew, in the same language', async () => {
    await setLanguage('en', { save: false })
    expect(render({ name: 'Price', unit: 'USDT' })).toBe('Price (USDT)')
    expect(render({ name: 'Amount', unit: 'BTC' })).toBe('Amount (BTC)')
  })

  it('reads a language that had no messages when first rendered once its messages arrive', async () => {
    expect(i18n.hasResourceBundle('fr', 'translation')).toBe(false)
    await i18n.changeLanguage('fr')
    // no French messages yet: i18next answers with the key, as it would for any missing text
    expect(render()).toBe('tabBar.home')
    await setLanguage('fr', { save: false })
    expect(render()).toBe('Accueil')
    await setLanguage('en', { save: false })
  })

  it('gives changed messages for a language as soon as they are added, not the text read before', async () => {
    await setLanguage('en', { save: false })
    expect(render()).toBe('Home')
    i18n.addResourceBundle('en', 'translation', { tabBar: { home: 'Start page' } }, true, true)
    expect(render()).toBe('Start page')
    i18n.addResourceBundle('en', 'translation', { tabBar: { home: 'Home' } }, true, true)
    expect(render()).toBe('Home')
  })

  it('resolves a plain label once per language however often its screen renders; a call with values every time', async () => {
    await setLanguage('ja', { save: false })
    const translate = vi.spyOn(i18n, 't')
    for (let renders = 0; renders < 20; renders++) render()
    expect(translate.mock.calls.filter(([key]) => key === 'tabBar.home')).toHaveLength(1)
    for (let renders = 0; renders < 3; renders++) render({ name: String(renders), unit: 'BTC' })
    expect(translate.mock.calls.filter(([key]) => key === 'common.withUnit')).toHaveLength(3)
    await setLanguage('en', { save: false })
  })

  it('keeps a bounded number of labels when keys are made from server values, and still reads each right', async () => {
    await setLanguage('en', { save: false })
    function Codes({ codes }: { codes: string[] }) {
      const { t } = useTranslation()
      return createElement('p', null, codes.map((code) => t(`errors.${code}`)).join(','))
    }
    expect(render()).toBe('Home')
    const translate = vi.spyOn(i18n, 't')
    const homeResolved = () => translate.mock.calls.filter(([key]) => key === 'tabBar.home').length
    expect(render()).toBe('Home')
    expect(homeResolved()).toBe(0)
    // six thousand distinct codes, as a server could send, go past the bound once: the kept labels start again
    renderToString(createElement(Codes, { codes: Array.from({ length: 6000 }, (_, n) => `code${n}`) }))
    expect(render()).toBe('Home')
    expect(homeResolved()).toBe(1)
  })
})
