import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_SETTINGS, STORAGE_KEYS, type MenuItem, type Settings } from '@tradegate/shared'
import { mergeSettings, openMenuItems, refreshSettings, settings, tradeHeaderTabs } from './settings'

const item = (key: string, sort: number, isOpen = true): MenuItem => ({
  key,
  name: key,
  url: `/${key}`,
  jumpType: 'inner',
  sort,
  isOpen,
  icon: '',
  activeIcon: '',
})

describe('tradeHeaderTabs', () => {
  it('shows the open tabs of the defaults: watchlist first, then second contract', () => {
    expect(tradeHeaderTabs(DEFAULT_SETTINGS as Settings)).toEqual([
      { key: 'Optional', isOption: true },
      { key: 'SecondContract', isOption: false },
    ])
  })

  it('keeps the sort order, puts the watchlist first wherever it is sorted, and drops closed tabs', () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      PLAYING_SETTING: [
        { key: 'Ustandard', isOpen: true, sort: 0 },
        { key: 'BBTrading', isOpen: true, sort: 1 },
        { key: 'SecondContract', isOpen: false, sort: 2 },
        { key: 'Optional', isOpen: true, sort: 9 },
      ],
    } as Settings
    expect(tradeHeaderTabs(settings).map((tab) => tab.key)).toEqual(['Optional', 'Ustandard', 'BBTrading'])
  })
})

describe('openMenuItems', () => {
  it('keeps open entries only, ordered by their sort number', () => {
    const menu = [item('c', 3), item('a', 1), item('hidden', 0, false), item('b', 2)]
    expect(openMenuItems(menu).map((entry) => entry.key)).toEqual(['a', 'b', 'c'])
  })
})

describe('mergeSettings', () => {
  it('replaces the defaults section by section and ignores unknown or empty sections', () => {
    const merged = mergeSettings({
      LOGIN_SETTING: { email: false, phone: true, account: true, address: false },
      SOMETHING_ELSE: 1,
      HOME_COINS: null,
    })
    expect(merged.LOGIN_SETTING).toEqual({ email: false, phone: true, account: true, address: false })
    expect(merged.HOME_COINS).toEqual(['btc', 'eth', 'trx'])
    expect('SOMETHING_ELSE' in merged).toBe(false)
  })

  it('falls back to the built-in defaults for anything that is not an object', () => {
    expect(mergeSettings('broken')).toBe(DEFAULT_SETTINGS)
    expect(mergeSettings([1, 2])).toBe(DEFAULT_SETTINGS)
  })
})

describe('refreshSettings', () => {
  afterEach(() => vi.unstubAllGlobals())

  // fetch is stubbed: this checks the store alone
  const serverAnswers = (data: unknown) =>
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 200, msg: 'ok', data })))

  it('stores and publishes a changed answer, and leaves screens alone when the answer is unchanged', async () => {
    const published = vi.fn()
    const unsubscribe = settings.subscribe(published)
    try {
      const login = { email: false, phone: true, account: true, address: false }
      serverAnswers({ LOGIN_SETTING: login })
      await refreshSettings()
      expect(published).toHaveBeenCalledTimes(1)
      expect(settings.get().LOGIN_SETTING).toEqual(login)
      expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.settings) ?? 'null').LOGIN_SETTING).toEqual(login)

      serverAnswers({ LOGIN_SETTING: { ...login } })
      await refreshSettings()
      expect(published).toHaveBeenCalledTimes(1)

      serverAnswers({ LOGIN_SETTING: { ...login, email: true } })
      await refreshSettings()
      expect(published).toHaveBeenCalledTimes(2)
      expect(settings.get().LOGIN_SETTING.email).toBe(true)
    } finally {
      unsubscribe()
    }
  })
})
