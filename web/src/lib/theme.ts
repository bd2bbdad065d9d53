import { useSyncExternalStore } from 'react'
import { STORAGE_KEYS } from '@tradegate/shared'
import { createStore } from './external-store'
import { readText, writeText } from './storage'

// Dark-first theme and the "eyes" switch that hides balances, both remembered across visits.

export type Theme = 'dark' | 'light'

const themeStore = createStore<Theme>(readText(STORAGE_KEYS.theme) === 'light' ? 'light' : 'dark')
const eyesStore = createStore<boolean>(readText(STORAGE_KEYS.eyes) !== 'closed')

export function applyTheme(theme: Theme = themeStore.get()): void {
  document.documentElement.dataset.theme = theme
  document
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute('content', theme === 'dark' ? '#0b0e11' : '#ffffff')
}

export function setTheme(theme: Theme): void {
  writeText(STORAGE_KEYS.theme, theme)
  themeStore.set(theme)
  applyTheme(theme)
}

export function useTheme(): Theme {
  return useSyncExternalStore(themeStore.subscribe, themeStore.get, themeStore.get)
}

/** true while balances are shown. */
export function useBalancesVisible(): boolean {
  return useSyncExternalStore(eyesStore.subscribe, eyesStore.get, eyesStore.get)
}

export function toggleBalancesVisible(): void {
  const visible = !eyesStore.get()
  writeText(STORAGE_KEYS.eyes, visible ? 'open' : 'closed')
  eyesStore.set(visible)
}

/**
 * Two fingers on the chart pinch the chart, not the page: their touchstart is cancelled there.
 * Everywhere else the page zooms as the reader wants. Returns the function that lifts the block.
 */
export function blockMultiTouch(element: HTMLElement): () => void {
  const cancelPinch = (event: TouchEvent) => {
    if (event.touches.length > 1) event.preventDefault()
  }
  element.addEventListener('touchstart', cancelPinch, { passive: false })
  return () => element.removeEventListener('touchstart', cancelPinch)
}
