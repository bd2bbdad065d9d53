import { useSyncExternalStore } from 'react'
import i18next, { type TFunction } from 'i18next'
import {
  BUNDLE_LANGUAGES,
  FALLBACK_LANGUAGE,
  RTL_LANGUAGES,
  STORAGE_KEYS,
  type LanguageEntry,
} from '@tradegate/shared'
import { readText, writeText } from './storage'

// i18next with one lazily loaded chunk per bundle; the one place that sets <html lang> and dir, and
// the one way components translate (useTranslation below).

type Messages = Record<string, unknown>

const bundleLoaders = import.meta.glob<Messages>('../locales/*.json', { import: 'default' })

export const i18n = i18next.createInstance()
void i18n.init({
  resources: {},
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
})

function isBundleLanguage(code: string): boolean {
  return (BUNDLE_LANGUAGES as readonly string[]).includes(code)
}

function isRightToLeft(code: string): boolean {
  return RTL_LANGUAGES.includes(code)
}

/** Native names of the bundle languages the default language list leaves out. */
const UNLISTED_BUNDLE_LABELS: Readonly<Record<string, string>> = { ar: 'العربية', da: 'Dansk', tr: 'Türkçe' }

/** The settings' language list, followed by every other language a bundle exists for. */
export function selectableLanguages(listed: readonly LanguageEntry[]): LanguageEntry[] {
  const codes = new Set(listed.map((entry) => entry.dictValue))
  const extra = BUNDLE_LANGUAGES.filter((code) => !codes.has(code)).map((code) => ({
    dictLabel: UNLISTED_BUNDLE_LABELS[code] ?? code,
    dictValue: code,
    imgUrl: `flags/${code}.svg`,
    isDefault: 'N' as const,
    status: 0,
  }))
  return [...listed, ...extra]
}

/** The first of the browser's preferred languages a bundle exists for ("en-US" matches en). */
export function browserLanguage(preferred: readonly string[]): string | undefined {
  for (const tag of preferred) {
    const code = tag.toLowerCase().split(/[-_]/)[0] ?? ''
    if (isBundleLanguage(code)) return code
  }
  return undefined
}

function preferredLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages
}

/**
 * The saved language; else the browser's preferred language when a bundle matches it; else English
 * when the browser named languages and none has a bundle (a Dutch reader is better served by the
 * fallback than by the list's default, Chinese); else, when the browser names none, the list entry
 * marked default, and English when there is none.
 */
export function chooseLanguage(
  saved: string | null,
  languages: readonly LanguageEntry[],
  preferred: readonly string[] = preferredLanguages(),
): string {
  if (saved) return saved
  const matched = browserLanguage(preferred)
  if (matched) return matched
  if (preferred.length > 0) return FALLBACK_LANGUAGE
  return languages.find((entry) => entry.isDefault === 'Y')?.dictValue || FALLBACK_LANGUAGE
}

export function savedLanguage(): string | null {
  return readText(STORAGE_KEYS.language)
}

async function loadMessages(code: string): Promise<Messages | null> {
  const bundle = isBundleLanguage(code) ? code : FALLBACK_LANGUAGE
  const load = bundleLoaders[`../locales/${bundle}.json`]
  if (!load) return null
  try {
    return await load()
  } catch {
    // a chunk that fails to load (offline) leaves the current language in place
    return null
  }
}

export interface SetLanguageOptions {
  /** false when applying the startup choice, which is saved only once the user picks a language */
  save?: boolean
  /** position of the entry in the language list, kept under its own storage key */
  languageId?: number
}

/** Loads the bundle (English when none exists for the code), switches, and sets `<html lang dir>`. */
export async function setLanguage(code: string, options: SetLanguageOptions = {}): Promise<void> {
  if (!i18n.hasResourceBundle(code, 'translation')) {
    const messages =
      (await loadMessages(code)) ??
      (code === FALLBACK_LANGUAGE ? null : await loadMessages(FALLBACK_LANGUAGE))
    if (!messages) return
    i18n.addResourceBundle(code, 'translation', messages, true, true)
  }
  // the page's lang first: the switch re-renders screens whose calls fetch at once, and the lang header
  // they send is read from it
  if (typeof document !== 'undefined') {
    document.documentElement.lang = code
    document.documentElement.dir = isRightToLeft(code) ? 'rtl' : 'ltr'
  }
  await i18n.changeLanguage(code)
  if (options.save !== false) {
    writeText(STORAGE_KEYS.language, code)
    if (options.languageId !== undefined) writeText(STORAGE_KEYS.languageId, String(options.languageId))
  }
}

function subscribeLanguage(listener: () => void): () => void {
  i18n.on('languageChanged', listener)
  return () => i18n.off('languageChanged', listener)
}

const currentLanguage = () => i18n.language

/** The current language; the component reading it renders again when it changes. */
export function useLanguage(): string {
  return useSyncExternalStore(subscribeLanguage, currentLanguage, currentLanguage)
}

export interface Translation {
  t: TFunction
  i18n: typeof i18n
}

/** i18next's t as it is called: a key (or keys to try in turn) and its options. */
type Translate = (key: string | string[], ...rest: unknown[]) => string

/** Each language's translator; dropped whenever that language's messages change. */
const translations = new Map<string, Translation>()
const forget = (language: string) => translations.delete(language)
i18n.store.on('added', forget)
i18n.store.on('removed', forget)

/**
 * Labels kept per language before the map starts again. The English bundle has under nine hundred; a few keys
 * are made from server values (an error code, a message title), so the bound holds whatever those send.
 */
const MAX_KEPT_LABELS = 5000

/**
 * A translator for `language` that keeps what each plain `t(key)` gave. i18next resolves a key anew
 * on every call (key parsing, lookup, interpolation and nesting scans of the text), and a trade
 * screen re-rendering its live figures calls it a few hundred times a second for the same labels.
 * Calls with options (counts, values, a default) go to i18next every time.
 */
function translationOf(language: string): Translation {
  let translation = translations.get(language)
  if (!translation) {
    const fixed = i18n.getFixedT(language) as unknown as Translate
    const plain = new Map<string, string>()
    const t: Translate = (key, ...rest) => {
      if (rest.length > 0 || typeof key !== 'string') return fixed(key, ...rest)
      let text = plain.get(key)
      if (text === undefined) {
        text = fixed(key)
        if (plain.size >= MAX_KEPT_LABELS) plain.clear()
        plain.set(key, text)
      }
      return text
    }
    // TFunction's brand exists only in its type: the function is i18next's own behind the map
    translation = { t: t as unknown as TFunction, i18n }
    translations.set(language, translation)
  }
  return translation
}

/**
 * The current language's translator, for components: the component renders again when the language
 * changes. (react-i18next's hook, used before, copied the whole i18next instance for each component
 * it mounted and checked the loaded namespaces on every render: a fifth of the trade screen's script
 * time while its figures were live.)
 */
export function useTranslation(): Translation {
  return translationOf(useLanguage())
}
