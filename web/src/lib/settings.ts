import { useSyncExternalStore } from 'react'
import {
  DEFAULT_SETTINGS,
  STORAGE_KEYS,
  isCode200,
  type CoinList,
  type MenuItem,
  type PlayingKey,
  type Settings,
} from '@tradegate/shared'
import { createStore, type ExternalStore } from './external-store'
import { callApi } from './http'
import { readJson, readText, writeText, type StorageKey } from './storage'

// Settings and the coin list: built-in defaults, replaced by the server's and kept in local storage.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Server values replace the defaults section by section, so a partial document still works. */
export function mergeSettings(remote: unknown): Settings {
  if (!isRecord(remote)) return DEFAULT_SETTINGS as Settings
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS }
  for (const [section, value] of Object.entries(remote)) {
    if (section in DEFAULT_SETTINGS && value !== null && value !== undefined) merged[section] = value
  }
  return merged as Settings
}

const settingsStore = createStore<Settings>(mergeSettings(readJson(STORAGE_KEYS.settings)))
const coinListStore = createStore<CoinList | null>(readJson<CoinList>(STORAGE_KEYS.coinList))

export const settings = { get: settingsStore.get, subscribe: settingsStore.subscribe }

/**
 * Stores a fresh server value and publishes it only when it differs from the one in use: the server
 * usually answers what was stored last time, and publishing an equal copy would re-render every
 * screen that reads it, synchronously, while the page is still loading.
 */
function keep<T>(store: ExternalStore<T>, key: StorageKey, next: T): void {
  const text = JSON.stringify(next)
  if (readText(key) !== text) writeText(key, text)
  if (text !== JSON.stringify(store.get())) store.set(next)
}

export function useSettings(): Settings {
  return useSyncExternalStore(settingsStore.subscribe, settingsStore.get, settingsStore.get)
}

export function useCoinList(): CoinList | null {
  return useSyncExternalStore(coinListStore.subscribe, coinListStore.get, coinListStore.get)
}

/** Fetches getAllSetting; only a code 200 answer replaces and persists the settings. */
export async function refreshSettings(): Promise<Settings> {
  try {
    const remote = await callApi('getAllSetting', {}, { accept: isCode200, quiet: true })
    keep(settingsStore, STORAGE_KEYS.settings, mergeSettings(remote))
  } catch {
    // unavailable: the stored or built-in settings stay in use
  }
  return settingsStore.get()
}

export async function refreshCoinList(): Promise<CoinList | null> {
  try {
    const list = await callApi('getCoinList', {}, { quiet: true })
    keep(coinListStore, STORAGE_KEYS.coinList, list)
  } catch {
    // the stored list stays in use
  }
  return coinListStore.get()
}

/** A settings menu as shown: open entries only, by their sort number. */
export function openMenuItems(items: readonly MenuItem[]): MenuItem[] {
  return items.filter((item) => item.isOpen).sort((left, right) => left.sort - right.sort)
}

export interface TradeHeaderTab {
  key: PlayingKey
  /** the watchlist tab, which the trade screen shows as a list of the user's coins */
  isOption: boolean
}

/** The open PLAYING_SETTING tabs in their sort order, the watchlist (Optional) first. */
export function tradeHeaderTabs(current: Settings): TradeHeaderTab[] {
  const open = current.PLAYING_SETTING.filter((tab) => tab.isOpen).sort(
    (left, right) => left.sort - right.sort,
  )
  const watchlist = open.filter((tab) => tab.key === 'Optional')
  const others = open.filter((tab) => tab.key !== 'Optional')
  return [...watchlist, ...others].map((tab) => ({ key: tab.key, isOption: tab.key === 'Optional' }))
}
