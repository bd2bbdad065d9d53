import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'

// en.json is the source of truth: every bundle must carry each of its keys with a non-empty text.

const dir = new URL('.', import.meta.url)

function load(code: string): unknown {
  return JSON.parse(readFileSync(new URL(`${code}.json`, dir), 'utf8'))
}

/** Flattens to dotted paths; array items get their index, so legal sections are compared too. */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>()
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, leaf] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, leaf)
    }
  } else out.set(prefix, value)
  return out
}

const english = leaves(load('en'))

describe('message bundles', () => {
  it('exist for exactly the 16 bundle languages', () => {
    const files = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.replace(/\.json$/, ''))
      .sort()
    expect(files).toEqual([...BUNDLE_LANGUAGES].sort())
  })

  it("writes the loading toast in each page's language, in Chinese as the product has always said it", () => {
    expect(leaves(load('zh')).get('common.loading')).toBe('加载中...')
    const chinese = /\p{Script=Han}/u
    const elsewhere = BUNDLE_LANGUAGES.filter((code) => !['zh', 'ja'].includes(code))
    expect(elsewhere.filter((code) => chinese.test(String(leaves(load(code)).get('common.loading'))))).toEqual([])
  })

  it.each([...BUNDLE_LANGUAGES])('%s has every key of en.json with a non-empty text', (code) => {
    const bundle = leaves(load(code))
    const missing = [...english.keys()].filter((key) => !bundle.has(key))
    const empty = [...bundle]
      .filter(([, text]) => typeof text !== 'string' || text.trim() === '')
      .map(([key]) => key)
    expect(missing).toEqual([])
    expect(empty).toEqual([])
  })

  it.each([...BUNDLE_LANGUAGES])('%s keeps the {{placeholders}} of each English text', (code) => {
    const bundle = leaves(load(code))
    const broken = [...english]
      .filter(([key, text]) => {
        const wanted =
          String(text)
            .match(/\{\{\w+\}\}/g)
            ?.sort() ?? []
        const found =
          String(bundle.get(key) ?? '')
            .match(/\{\{\w+\}\}/g)
            ?.sort() ?? []
        return wanted.join() !== found.join()
      })
      .map(([key]) => key)
    expect(broken).toEqual([])
  })

  // Names every language keeps (the greeks are Greek letters, spelled alike in Latin script), and words
  // a language spells exactly as English does.
  const SAME_EVERYWHERE = [
    'brand',
    'auth.placeholders.email',
    'download.android',
    'trade.takeProfitStopLoss',
    'options.delta',
    'options.gamma',
    'options.vega',
    // implied volatility and theta per minute and second go by their abbreviations (IV, min, s) in most languages
    'options.iv',
    'options.thetaPer_minute',
    'options.thetaPer_second',
    // chart indicators go by their abbreviations in most languages, as on Binance and TradingView
    'chart.indicatorShort.ma',
    'chart.indicatorShort.ema',
    'chart.indicatorShort.boll',
    // a figure's name and its unit, joined with brackets: only the brackets can differ (full-width in ja, zh)
    'common.withUnit',
  ]
  const SPELLED_LIKE_ENGLISH: Partial<Record<string, string[]>> = {
    da: ['layout.menu', 'auth.methods.email', 'chart.interval', 'withdrawal.memo'],
    de: ['layout.navigation', 'trade.status', 'trade.margin', 'withdrawal.memo', 'withdrawal.optional'],
    fr: [
      'menu.option',
      'layout.navigation',
      'layout.menu',
      'auth.methods.email',
      'market.tabs.Option',
      'trade.tabs.Option',
      'trade.positions',
      'option.title',
      'chart.indicatorNames.volume',
    ],
    it: [
      'layout.menu',
      'auth.methods.email',
      'auth.password',
      'withdrawal.memo',
      'chart.indicatorNames.volume',
    ],
    pl: ['layout.menu', 'auth.methods.email', 'withdrawal.memo'],
    pt: ['layout.menu', 'auth.methods.email', 'withdrawal.memo', 'chart.indicatorNames.volume'],
    es: ['withdrawal.memo'],
  }

  it.each(BUNDLE_LANGUAGES.filter((code) => code !== 'en'))(
    '%s leaves no English text untranslated',
    (code) => {
      const bundle = leaves(load(code))
      const allowed = new Set([...SAME_EVERYWHERE, ...(SPELLED_LIKE_ENGLISH[code] ?? [])])
      const untranslated = [...english]
        .filter(([key, text]) => bundle.get(key) === text && !allowed.has(key))
        .map(([key]) => key)
      expect(untranslated).toEqual([])
    },
  )
})
