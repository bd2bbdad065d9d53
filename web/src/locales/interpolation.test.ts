import { readFileSync, readdirSync } from 'node:fs'
import i18next from 'i18next'
import { describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'

// No text reaches the screen with a raw {{placeholder}}: every text renders with its variables in
// every bundle, and every call in the client passes each variable its text names.

const localesDir = new URL('.', import.meta.url)
const sourceDir = new URL('..', import.meta.url)
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g

function load(code: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`${code}.json`, localesDir), 'utf8')) as Record<string, unknown>
}

function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      for (const [path, leaf] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, leaf)
  } else out.set(prefix, String(value))
  return out
}

function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))].sort()
}

const english = leaves(load('en'))
const withVariables = [...english].filter(([, text]) => placeholders(text).length > 0)

/** Every `t('literal.key', { ... })` of the client's source, with the names its options pass. */
function translationCalls(): { where: string; key: string; names: string[] | 'spread' }[] {
  const files = readdirSync(sourceDir, { recursive: true, encoding: 'utf8' }).filter(
    (name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts'),
  )
  const calls: { where: string; key: string; names: string[] | 'spread' }[] = []
  for (const file of files) {
    const source = readFileSync(new URL(file, sourceDir), 'utf8')
    for (const match of source.matchAll(/\bt\(\s*'([\w.]+)'\s*(,\s*\{)?/g)) {
      const line = source.slice(0, match.index).split('\n').length
      const options = match[2] ? objectText(source, match.index + match[0].length - 1) : ''
      calls.push({ where: `${file}:${line}`, key: match[1]!, names: optionNames(options) })
    }
  }
  return calls
}

/** The text of the object literal that opens at `start`, braces balanced. */
function objectText(source: string, start: number): string {
  let depth = 0
  for (let index = start; index < source.length; index++) {
    if (source[index] === '{') depth++
    if (source[index] === '}' && --depth === 0) return source.slice(start + 1, index)
  }
  return ''
}

/** The property names at the top level of an object literal's text. */
function optionNames(text: string): string[] | 'spread' {
  const parts: string[] = []
  let depth = 0
  let current = ''
  for (const char of text) {
    if ('([{'.includes(char)) depth++
    if (')]}'.includes(char)) depth--
    if (char === ',' && depth === 0) {
      parts.push(current)
      current = ''
    } else current += char
  }
  parts.push(current)
  if (parts.some((part) => part.trim().startsWith('...'))) return 'spread'
  return parts.map((part) => /^\s*(\w+)/.exec(part)?.[1]).filter((name): name is string => !!name)
}

describe('interpolation', () => {
  it('the English bundle has texts with variables to check', () => {
    expect(withVariables.length).toBeGreaterThan(20)
  })

  it.each([...BUNDLE_LANGUAGES])('%s renders every text with its variables and no raw {{', async (code) => {
    const i18n = i18next.createInstance()
    await i18n.init({
      lng: code,
      resources: { [code]: { translation: load(code) } },
      interpolation: { escapeValue: false },
    })
    const raw: string[] = []
    for (const [key, text] of english) {
      const names = placeholders(text)
      const values = Object.fromEntries(names.map((name, index) => [name, `«${index + 7}»`]))
      const rendered = i18n.t(key, values)
      const missing = Object.values(values).filter((value) => !rendered.includes(value))
      if (rendered.includes('{{') || missing.length > 0) raw.push(`${key}: ${rendered}`)
    }
    expect(raw).toEqual([])
  })

  it('every call in the client passes each variable its text names', () => {
    const calls = translationCalls()
    expect(calls.length).toBeGreaterThan(300)
    const wrong = calls
      .filter(({ key, names }) => names !== 'spread' && english.has(key))
      .filter(({ key, names }) => placeholders(english.get(key)!).some((name) => !names.includes(name)))
      .map(({ where, key, names }) => `${where} ${key} given {${String(names)}}`)
    expect(wrong).toEqual([])
  })
})
