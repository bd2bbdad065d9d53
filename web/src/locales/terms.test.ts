import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'

// One term per concept on the desk, in every language: a trader who reads "last price" in the
// header must meet the same words where a stop's trigger is chosen, and "mark price" likewise.

type Texts = Record<string, Record<string, unknown>>

function load(code: string): Texts {
  return JSON.parse(readFileSync(new URL(`${code}.json`, import.meta.url), 'utf8')) as Texts
}

function text(bundle: Texts, path: string): string {
  const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], bundle)
  return String(value)
}

/** Each concept: the label that names it, and every other text that must name it the same way. */
const CONCEPTS = {
  lastPrice: {
    label: 'market.lastPrice',
    same: ['home.lastPrice', 'option.lastPrice'],
    opens: ['trade.exits.lastHint'],
  },
  markPrice: { label: 'trade.markPrice', same: [], opens: ['trade.exits.markHint'] },
} as const

describe('one term per concept', () => {
  it.each([...BUNDLE_LANGUAGES])('%s names last and mark price one way each', (code) => {
    const bundle = load(code)
    for (const [concept, { label, same, opens }] of Object.entries(CONCEPTS)) {
      const term = text(bundle, label)
      for (const path of same) expect(text(bundle, path), `${concept}: ${path}`).toBe(term)
      for (const path of opens)
        expect(text(bundle, path).toLowerCase().startsWith(term.toLowerCase()), `${concept}: ${path}`).toBe(
          true,
        )
    }
  })
})
