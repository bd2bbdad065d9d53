import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'
import { WALLET_ACTIONS } from './wallet-actions'

function bundle(code: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../../locales/${code}.json`, import.meta.url), 'utf8'))
}

function text(messages: unknown, key: string): string {
  return String(
    key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages),
  )
}

describe('wallet action labels', () => {
  it.each(BUNDLE_LANGUAGES)('are distinct words on the fund tab in %s', (code) => {
    const labels = WALLET_ACTIONS.map((action) => text(bundle(code), action.label))
    expect(new Set(labels).size).toBe(labels.length)
  })
})

describe('identity screen labels', () => {
  it.each(BUNDLE_LANGUAGES.filter((code) => code !== 'en'))('are translated in %s', (code) => {
    const english = bundle('en')
    for (const key of ['account.status', 'account.level', 'account.identity']) {
      expect(text(bundle(code), key), key).not.toBe(text(english, key))
    }
  })
})
