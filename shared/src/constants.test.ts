import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { Settings } from './settings'
import {
  BUNDLE_LANGUAGES,
  DEFAULT_LANGUAGE,
  DEFAULT_SETTINGS,
  FALLBACK_LANGUAGE,
  LIMITS,
  LISTED_LANGUAGES,
  STORAGE_KEYS,
  TAB_BAR,
  TIME_ZONES,
} from './constants'

describe('built-in settings', () => {
  it('match the settings schema the server document follows', () => {
    expect([...Value.Errors(Settings, DEFAULT_SETTINGS)]).toEqual([])
  })

  it('are frozen at every depth', () => {
    expect(Object.isFrozen(DEFAULT_SETTINGS)).toBe(true)
    expect(Object.isFrozen(DEFAULT_SETTINGS.WITHDRAWAL_SETTING)).toBe(true)
    expect(Object.isFrozen(DEFAULT_SETTINGS.MENU_SETTING.bottom[0])).toBe(true)
    expect(() => {
      ;(DEFAULT_SETTINGS.WITHDRAWAL_SETTING as { min: string }).min = '0'
    }).toThrow()
  })

  it('carry the withdrawal, recharge, trader, auth and fee defaults', () => {
    expect(DEFAULT_SETTINGS.WITHDRAWAL_SETTING).toMatchObject({
      ratio: '10',
      dayCount: 10,
      freeCount: 0,
      max: '100000',
      min: '20',
      coinTax: 'usdt',
      startTime: '11:00:00',
      endTime: '23:00:00',
      channelMax: '1000000',
      channelMin: '20',
    })
    expect(DEFAULT_SETTINGS.RECHARGE_SETTING).toEqual([
      { coin: 'usdt', chain: 'TRC20', min: '1', max: '9999999', count: 99999 },
    ])
    expect(DEFAULT_SETTINGS.TRADER_SETTING).toMatchObject({
      shareRate: '0.2',
      maxUserCount: 2500,
      traderMinAmount: '1000',
      highRebate: '40',
    })
    expect(DEFAULT_SETTINGS.FINANCIAL_REBATE).toEqual({ enabled: false, ratios: ['1', '2', '3'] })
    expect(DEFAULT_SETTINGS.AUTH_LIMIT).toMatchObject({ primary: '1.001', senior: '2.002' })
    expect(DEFAULT_SETTINGS.REGISTRATION_CREDIT).toEqual({ coin: 'usdt', amount: '80' })
    expect(DEFAULT_SETTINGS.CONTRACT_FEES).toEqual({ openFee: '0.001', closeFee: '0.001' })
    expect(DEFAULT_SETTINGS.REGISTER_SETTING.inviteCodeRequired).toBe(true)
  })

  it('has VIP levels 0 to 12, disabled, with ranges that meet', () => {
    const { enabled, levels } = DEFAULT_SETTINGS.VIP_LEVEL
    expect(enabled).toBe(false)
    expect(levels.map((level) => level.level)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    for (let i = 1; i < levels.length; i++) expect(levels[i]?.startAmount).toBe(levels[i - 1]?.endAmount)
  })

  it('opens only the watchlist and second-contract tabs, watchlist first', () => {
    const open = DEFAULT_SETTINGS.PLAYING_SETTING.filter((tab) => tab.isOpen).map((tab) => tab.key)
    expect(open).toEqual(['Optional', 'SecondContract'])
    expect(DEFAULT_SETTINGS.PLAYING_SETTING[0]?.key).toBe('Optional')
  })

  it('names the home coins, downloads and time format', () => {
    expect(DEFAULT_SETTINGS.HOME_COINS).toEqual(['btc', 'eth', 'trx'])
    expect(Object.keys(DEFAULT_SETTINGS.DOWNLOADS)).toEqual(['android', 'apple'])
    expect(DEFAULT_SETTINGS.TIME_FORMAT).toBe('MM/DD/YYYY')
    expect(DEFAULT_SETTINGS.DEFAULT_TIME_ZONE).toEqual({
      zoneId: 'Asia/Hong_Kong',
      offset: 8,
      label: '+08:00',
    })
  })
})

describe('time zones', () => {
  it('are 38, from -12 to +14, ordered, unique', () => {
    expect(TIME_ZONES).toHaveLength(38)
    expect(TIME_ZONES[0]).toEqual({ zoneId: 'Etc/GMT+12', offSet: '-12:00', offSetValue: -12 })
    expect(TIME_ZONES.at(-1)).toEqual({ zoneId: 'Pacific/Kiritimati', offSet: '+14:00', offSetValue: 14 })
    const values = TIME_ZONES.map((zone) => zone.offSetValue)
    expect([...values].sort((a, b) => a - b)).toEqual(values)
    expect(new Set(values).size).toBe(38)
    expect(TIME_ZONES.find((zone) => zone.offSet === '+05:45')?.offSetValue).toBe(5.75)
    expect(TIME_ZONES.find((zone) => zone.offSet === '-03:30')?.offSetValue).toBe(-3.5)
  })
})

describe('languages', () => {
  it('lists 13 languages with zh the default, and bundles 16', () => {
    expect(LISTED_LANGUAGES.map((language) => language.dictValue)).toEqual([
      'en',
      'ja',
      'ko',
      'th',
      'vi',
      'pt',
      'es',
      'fr',
      'ru',
      'de',
      'it',
      'pl',
      'zh',
    ])
    expect(LISTED_LANGUAGES.filter((language) => language.isDefault === 'Y').map((l) => l.dictValue)).toEqual(
      ['zh'],
    )
    expect(BUNDLE_LANGUAGES).toHaveLength(16)
    for (const code of ['ar', 'da', 'tr']) expect(BUNDLE_LANGUAGES).toContain(code)
    for (const entry of LISTED_LANGUAGES) expect(BUNDLE_LANGUAGES).toContain(entry.dictValue)
    expect(DEFAULT_LANGUAGE).toBe('zh')
    expect(FALLBACK_LANGUAGE).toBe('en')
  })
})

describe('limits, storage keys and tab bar', () => {
  it('carry the timeouts and sizes', () => {
    expect(LIMITS).toEqual({
      httpTimeoutMs: 60000,
      exchangeListPageSize: 1000,
      positionListPageSize: 100000,
      addressFetchDebounceMs: 5000,
      socketReconnectMs: 3000,
      toastMs: 2000,
      tokenExpiredReloadMs: 10,
      uploadMaxBytes: 5 * 1024 * 1024,
    })
  })

  it('prefix every storage key with an underscore', () => {
    for (const value of Object.values(STORAGE_KEYS)) expect(value).toMatch(/^_[a-zA-Z]+$/)
    expect(new Set(Object.values(STORAGE_KEYS)).size).toBe(Object.values(STORAGE_KEYS).length)
  })

  it('has five tab items sorted 1 to 5 with 20 px icons and a 53 px centre', () => {
    expect(TAB_BAR.items.map((item) => [item.sort, item.link])).toEqual([
      [1, '/'],
      [2, '/store'],
      [3, '/trade?id=1'],
      [4, '/finance'],
      [5, '/wallet'],
    ])
    expect(TAB_BAR.iconPx).toBe(20)
    expect(TAB_BAR.centreIconPx).toBe(53)
    expect(TAB_BAR.paths).toEqual(['/', '/store', '/flash', '/finance', '/wallet', '/trade'])
  })
})
