import type { STORAGE_KEYS } from '@tradegate/shared'

// Storage may be unavailable (private mode, quota, blocked cookies); the app must keep working without it.

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS]

export function readText(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

export function writeText(key: StorageKey, value: string): void {
  try {
    localStorage.setItem(key, value)
  } catch {
    // a full or blocked storage only loses persistence, never the running session
  }
}

export function removeKey(key: StorageKey): void {
  try {
    localStorage.removeItem(key)
  } catch {
    // see writeText
  }
}

/** Parsed JSON, or null when the stored text is missing or corrupt. */
export function readJson<T>(key: StorageKey): T | null {
  const text = readText(key)
  if (text === null) return null
  try {
    return JSON.parse(text) as T
  } catch {
    return null
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  writeText(key, JSON.stringify(value))
}
