import { DEFAULT_SETTINGS, Settings, type Settings as SettingsDocument } from '@tradegate/shared'
import { Value } from 'typebox/value'

// The settings document getAllSetting serves: the built-in defaults with every screen switched on.

export function sandboxSettings(): SettingsDocument {
  const settings = structuredClone(DEFAULT_SETTINGS) as SettingsDocument
  // every trading tab open, so every trading screen can be tried against the sandbox
  settings.PLAYING_SETTING = settings.PLAYING_SETTING.map((tab) => ({ ...tab, isOpen: true }))
  settings.LOGIN_SETTING = { email: true, phone: true, account: true, address: true }
  settings.REGISTER_SETTING = {
    ...settings.REGISTER_SETTING,
    email: true,
    phone: true,
    account: true,
    address: true,
  }
  settings.RECHARGE_SETTING = [
    ...settings.RECHARGE_SETTING,
    { coin: 'usdt', chain: 'ERC20', min: '10', max: '9999999', count: 99_999 },
    { coin: 'btc', chain: 'BTC', min: '0.0001', max: '100', count: 99_999 },
    { coin: 'eth', chain: 'ERC20', min: '0.001', max: '1000', count: 99_999 },
    { coin: 'trx', chain: 'TRC20', min: '10', max: '10000000', count: 99_999 },
    { coin: 'xrp', chain: 'XRP', min: '20', max: '1000000', count: 99_999 },
  ]
  return settings
}

export class SettingsStore {
  private document = sandboxSettings()

  get current(): SettingsDocument {
    return this.document
  }

  /** Deep-merges a patch (arrays replace whole); a result that breaks the schema is refused, unchanged. */
  patch(patch: unknown): { ok: true } | { ok: false; error: string } {
    const next = deepMerge(structuredClone(this.document), patch)
    if (!Value.Check(Settings, next)) {
      const first = Value.Errors(Settings, next)[0]
      return {
        ok: false,
        error: `invalidSettings: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim(),
      }
    }
    this.document = next as SettingsDocument
    return { ok: true }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function deepMerge(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(target) || !isPlainObject(patch)) return patch
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue
    target[key] = deepMerge(target[key], value)
  }
  return target
}
