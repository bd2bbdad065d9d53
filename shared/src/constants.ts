import type { LanguageEntry, MenuItem, Settings, TimeZone } from './settings'

// Business constants, and the built-in settings both sides fall back to when the server has none.

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

export const LIMITS = deepFreeze({
  httpTimeoutMs: 60_000,
  /** rows of the exchange list read in all, a page of MAX_PAGE_SIZE at a time */
  exchangeListPageSize: 1000,
  /** open positions read in all, a page of MAX_PAGE_SIZE at a time */
  positionListPageSize: 100_000,
  addressFetchDebounceMs: 5000,
  socketReconnectMs: 3000,
  toastMs: 2000,
  tokenExpiredReloadMs: 10,
  /** one uploaded file (identity photos): the gateway's whole-upload limit and the sandbox's per-file limit */
  uploadMaxBytes: 5 * 1024 * 1024,
})

/** Local-storage keys; the leading underscore keeps them apart from third-party keys. */
export const STORAGE_KEYS = deepFreeze({
  token: '_token',
  language: '_language',
  languageId: '_languageId',
  userInfo: '_userInfo',
  theme: '_theme',
  eyes: '_eyes',
  closeWindowTime: '_closeWindowTime',
  testPlatform: '_testPlatform',
  /** defined by us: the parameters automatic sign-in sends */
  autoLogin: '_autoLogin',
  settings: '_settings',
  coinList: '_coinList',
  /** defined by us: the zone the user picked for every time shown */
  timeZone: '_timeZone',
  /** defined by us: the indicators the user drew on the candle chart */
  chartIndicators: '_chartIndicators',
  /** defined by us: the kinds of event the user chose not to be interrupted by (a toast) */
  noticeMutes: '_noticeMutes',
  /** defined by us, in session storage: the notification centre's list, gone with the session */
  notices: '_notices',
  /** defined by us, in session storage: the session ended elsewhere, told on the sign-in screen */
  sessionEnded: '_sessionEnded',
})

export const DEFAULT_LANGUAGE = 'zh'
export const FALLBACK_LANGUAGE = 'en'
/** Every language a message bundle exists for. */
export const BUNDLE_LANGUAGES = deepFreeze([
  'en',
  'zh',
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
  'ar',
  'da',
  'tr',
] as const)
export type BundleLanguage = (typeof BUNDLE_LANGUAGES)[number]
export const RTL_LANGUAGES: readonly string[] = deepFreeze(['ar'])

const LANGUAGE_LABELS: ReadonlyArray<[string, string]> = [
  ['en', 'English'],
  ['ja', '日本語'],
  ['ko', '한국어'],
  ['th', 'ไทย'],
  ['vi', 'Tiếng Việt'],
  ['pt', 'Português'],
  ['es', 'Español'],
  ['fr', 'Français'],
  ['ru', 'Русский'],
  ['de', 'Deutsch'],
  ['it', 'Italiano'],
  ['pl', 'Polski'],
  ['zh', '简体中文'],
]

/** The 13 languages offered in the language list by default. */
export const LISTED_LANGUAGES: readonly LanguageEntry[] = deepFreeze(
  LANGUAGE_LABELS.map(([code, label]) => ({
    dictLabel: label,
    dictValue: code,
    imgUrl: `flags/${code}.svg`,
    isDefault: code === DEFAULT_LANGUAGE ? ('Y' as const) : ('N' as const),
    status: 0,
  })),
)

const ZONES: ReadonlyArray<[string, string]> = [
  ['Etc/GMT+12', '-12:00'],
  ['Pacific/Pago_Pago', '-11:00'],
  ['Pacific/Honolulu', '-10:00'],
  ['Pacific/Marquesas', '-09:30'],
  ['America/Anchorage', '-09:00'],
  ['America/Los_Angeles', '-08:00'],
  ['America/Denver', '-07:00'],
  ['America/Chicago', '-06:00'],
  ['America/New_York', '-05:00'],
  ['America/Halifax', '-04:00'],
  ['America/St_Johns', '-03:30'],
  ['America/Sao_Paulo', '-03:00'],
  ['Atlantic/South_Georgia', '-02:00'],
  ['Atlantic/Azores', '-01:00'],
  ['Europe/London', '+00:00'],
  ['Europe/Paris', '+01:00'],
  ['Europe/Athens', '+02:00'],
  ['Europe/Moscow', '+03:00'],
  ['Asia/Tehran', '+03:30'],
  ['Asia/Dubai', '+04:00'],
  ['Asia/Kabul', '+04:30'],
  ['Asia/Karachi', '+05:00'],
  ['Asia/Kolkata', '+05:30'],
  ['Asia/Kathmandu', '+05:45'],
  ['Asia/Dhaka', '+06:00'],
  ['Asia/Yangon', '+06:30'],
  ['Asia/Bangkok', '+07:00'],
  ['Asia/Hong_Kong', '+08:00'],
  ['Australia/Eucla', '+08:45'],
  ['Asia/Tokyo', '+09:00'],
  ['Australia/Darwin', '+09:30'],
  ['Australia/Brisbane', '+10:00'],
  ['Australia/Lord_Howe', '+10:30'],
  ['Pacific/Noumea', '+11:00'],
  ['Pacific/Auckland', '+12:00'],
  ['Pacific/Chatham', '+12:45'],
  ['Pacific/Tongatapu', '+13:00'],
  ['Pacific/Kiritimati', '+14:00'],
]

function offsetHours(offset: string): number {
  const sign = offset.startsWith('-') ? -1 : 1
  const [hours = '0', minutes = '0'] = offset.slice(1).split(':')
  return sign * (Number(hours) + Number(minutes) / 60)
}

/** 38 zones from UTC-12 to UTC+14, half and three-quarter hours included. */
export const TIME_ZONES: readonly TimeZone[] = deepFreeze(
  ZONES.map(([zoneId, offSet]) => ({ zoneId, offSet, offSetValue: offsetHours(offSet) })),
)
export const DEFAULT_TIME_ZONE = deepFreeze({ zoneId: 'Asia/Hong_Kong', offset: 8, label: '+08:00' })
export const TIME_FORMAT = 'MM/DD/YYYY'

/** Keys of the option-rules call: the rule texts shown beside each kind of trading. */
export const OPTION_RULE_KEYS = deepFreeze({
  option: 'OPTION_RULE',
  secondContract: 'SECOND_RULE',
  contract: 'CONTRACT_RULE',
} as const)

export const HOME_COINS: readonly string[] = deepFreeze(['btc', 'eth', 'trx'])

export const TAB_BAR = deepFreeze({
  iconPx: 20,
  centreIconPx: 53,
  paths: ['/', '/store', '/flash', '/finance', '/wallet', '/trade'],
  items: [
    { key: 'home', label: 'home', link: '/', image: 'home', activeImage: 'home-active', sort: 1 },
    {
      key: 'market',
      label: 'market',
      link: '/store',
      image: 'market',
      activeImage: 'market-active',
      sort: 2,
    },
    {
      key: 'trade',
      label: 'trade',
      link: '/trade?id=1',
      image: 'trade',
      activeImage: 'trade-active',
      sort: 3,
    },
    {
      key: 'finance',
      label: 'finance',
      link: '/finance',
      image: 'finance',
      activeImage: 'finance-active',
      sort: 4,
    },
    { key: 'fund', label: 'fund', link: '/wallet', image: 'fund', activeImage: 'fund-active', sort: 5 },
  ],
})

function menu(key: string, url: string, sort: number, isOpen = true): MenuItem {
  return { key, name: key, url, jumpType: 'inner', sort, isOpen, icon: `menu/${key}.svg`, activeIcon: '' }
}

export const DEFAULT_SETTINGS: Readonly<Settings> = deepFreeze({
  PLAYING_SETTING: [
    { key: 'Optional', isOpen: true, sort: 0 },
    { key: 'SecondContract', isOpen: true, sort: 1 },
    { key: 'BBTrading', isOpen: false, sort: 2 },
    { key: 'Ustandard', isOpen: false, sort: 3 },
    { key: 'Option', isOpen: false, sort: 4 },
  ],
  LOGIN_SETTING: { email: true, phone: true, account: false, address: false },
  REGISTER_SETTING: { email: true, phone: true, account: false, address: false, inviteCodeRequired: true },
  VERIFY_CODE_SETTING: {
    email: true,
    phone: false,
    account: false,
    auth: false,
    withdrawAddress: false,
    withdrawPassword: true,
  },
  FUND_PASSWORD_SETTING: { spot: false, contract: false, second: false, withdraw: true },
  MENU_SETTING: {
    sidebar: [
      menu('assets', '/assets', 1),
      menu('invite', '/invite', 2),
      menu('welfare', '/welfare', 3),
      menu('primary', '/primary', 4),
      menu('advanced', '/advanced', 5),
      menu('help', '/help', 6),
      menu('message', '/message', 7),
      menu('langList', '/langList', 8),
      menu('download', '/download', 9),
      menu('security', '/secrety', 10),
    ],
    bottom: [
      menu('home', '/', 1),
      menu('trade', '/trade?id=1', 2),
      menu('option', '/option', 3),
      menu('follow', '/follow', 4),
      menu('proxy', '/proxy', 5),
      menu('assets', '/assets', 6),
    ],
    middle: [
      menu('trade', '/trade?id=1', 1),
      menu('recharge', '/recharge', 2),
      menu('proxy', '/proxy', 3),
      menu('futures', '/trade?id=1&componentName=2', 4),
      menu('option', '/option', 5),
    ],
    desktopSidebar: [
      menu('home', '/', 1),
      menu('market', '/store', 2),
      menu('trade', '/trade?id=1', 3),
      menu('option', '/option', 4),
      menu('follow', '/follow', 5),
      menu('proxy', '/proxy', 6),
      menu('finance', '/finance', 7),
      menu('assets', '/assets', 8),
      menu('extend', '/extend', 9),
      menu('welfare', '/welfare', 10),
      menu('security', '/secrety', 11),
      menu('identity', '/userauth', 12),
      menu('message', '/message', 13),
      menu('help', '/help', 14),
      menu('langList', '/langList', 15),
    ],
  },
  AUTH_LIMIT: { primary: '1.001', senior: '2.002', primaryOpen: true, seniorOpen: true },
  VIP_LEVEL: {
    enabled: false,
    levels: Array.from({ length: 13 }, (_, level) => ({
      level,
      startAmount: level === 0 ? '0' : String(10_000 * 2 ** (level - 1)),
      endAmount: level === 12 ? '0' : String(10_000 * 2 ** level),
    })),
  },
  WITHDRAWAL_SETTING: {
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
  },
  RECHARGE_SETTING: [{ coin: 'usdt', chain: 'TRC20', min: '1', max: '9999999', count: 99_999 }],
  TRADER_SETTING: {
    shareRate: '0.2',
    maxUserCount: 2500,
    defaultUserCount: 0,
    traderMinAmount: '1000',
    highRebate: '40',
    perUser: '0',
    totalRebate: '0',
    totalUserCount: 0,
    totalAmountCount: '0',
  },
  FINANCIAL_REBATE: { enabled: false, ratios: ['1', '2', '3'] },
  REGISTRATION_CREDIT: { coin: 'usdt', amount: '80' },
  CONTRACT_FEES: { openFee: '0.001', closeFee: '0.001' },
  LANGUAGES: [...LISTED_LANGUAGES],
  TIME_ZONES: [...TIME_ZONES],
  DEFAULT_TIME_ZONE: { ...DEFAULT_TIME_ZONE },
  TIME_FORMAT,
  HOME_COINS: [...HOME_COINS],
  DOWNLOADS: { android: '/downloads/app.apk', apple: '/downloads/app.mobileconfig' },
  CUSTOMER_SERVICE: { url: '/#/message', email: 'support@example.com' },
})
