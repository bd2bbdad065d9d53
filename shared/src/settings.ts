import { Type, type Static } from 'typebox'

// The settings document served by getAllSetting; the built-in default lives in constants.ts.

export const PLAYING_KEYS = ['Optional', 'SecondContract', 'BBTrading', 'Ustandard', 'Option'] as const
export type PlayingKey = (typeof PLAYING_KEYS)[number]

export const PlayingTab = Type.Object({
  key: Type.Enum(PLAYING_KEYS),
  isOpen: Type.Boolean(),
  sort: Type.Integer(),
})
export type PlayingTab = Static<typeof PlayingTab>

export const MenuItem = Type.Object({
  key: Type.String(),
  name: Type.String(),
  url: Type.String(),
  /** inner: a route of this app; outer: opened in a new window */
  jumpType: Type.Union([Type.Literal('inner'), Type.Literal('outer')]),
  sort: Type.Integer(),
  isOpen: Type.Boolean(),
  icon: Type.String(),
  activeIcon: Type.String(),
})
export type MenuItem = Static<typeof MenuItem>

export const LoginMethods = Type.Object({
  email: Type.Boolean(),
  phone: Type.Boolean(),
  account: Type.Boolean(),
  address: Type.Boolean(),
})
export type LoginMethods = Static<typeof LoginMethods>
export type LoginMethod = keyof LoginMethods

export const LanguageEntry = Type.Object({
  dictLabel: Type.String(),
  dictValue: Type.String(),
  imgUrl: Type.String(),
  isDefault: Type.Union([Type.Literal('Y'), Type.Literal('N')]),
  status: Type.Integer(),
})
export type LanguageEntry = Static<typeof LanguageEntry>

export const TimeZone = Type.Object({
  zoneId: Type.String(),
  offSet: Type.String(),
  offSetValue: Type.Number(),
})
export type TimeZone = Static<typeof TimeZone>

export const Settings = Type.Object({
  PLAYING_SETTING: Type.Array(PlayingTab),
  LOGIN_SETTING: LoginMethods,
  REGISTER_SETTING: Type.Object({ ...LoginMethods.properties, inviteCodeRequired: Type.Boolean() }),
  VERIFY_CODE_SETTING: Type.Object({
    email: Type.Boolean(),
    phone: Type.Boolean(),
    account: Type.Boolean(),
    auth: Type.Boolean(),
    withdrawAddress: Type.Boolean(),
    withdrawPassword: Type.Boolean(),
  }),
  /** which order forms ask for the fund password */
  FUND_PASSWORD_SETTING: Type.Object({
    spot: Type.Boolean(),
    contract: Type.Boolean(),
    second: Type.Boolean(),
    withdraw: Type.Boolean(),
  }),
  MENU_SETTING: Type.Object({
    sidebar: Type.Array(MenuItem),
    bottom: Type.Array(MenuItem),
    middle: Type.Array(MenuItem),
    desktopSidebar: Type.Array(MenuItem),
  }),
  AUTH_LIMIT: Type.Object({
    primary: Type.String(),
    senior: Type.String(),
    primaryOpen: Type.Boolean(),
    seniorOpen: Type.Boolean(),
  }),
  VIP_LEVEL: Type.Object({
    enabled: Type.Boolean(),
    levels: Type.Array(
      Type.Object({ level: Type.Integer(), startAmount: Type.String(), endAmount: Type.String() }),
    ),
  }),
  WITHDRAWAL_SETTING: Type.Object({
    ratio: Type.String(),
    dayCount: Type.Integer(),
    freeCount: Type.Integer(),
    max: Type.String(),
    min: Type.String(),
    coinTax: Type.String(),
    startTime: Type.String(),
    endTime: Type.String(),
    channelMax: Type.String(),
    channelMin: Type.String(),
  }),
  RECHARGE_SETTING: Type.Array(
    Type.Object({
      coin: Type.String(),
      chain: Type.String(),
      min: Type.String(),
      max: Type.String(),
      count: Type.Integer(),
    }),
  ),
  TRADER_SETTING: Type.Object({
    shareRate: Type.String(),
    maxUserCount: Type.Integer(),
    defaultUserCount: Type.Integer(),
    traderMinAmount: Type.String(),
    highRebate: Type.String(),
    perUser: Type.String(),
    totalRebate: Type.String(),
    totalUserCount: Type.Integer(),
    totalAmountCount: Type.String(),
  }),
  FINANCIAL_REBATE: Type.Object({ enabled: Type.Boolean(), ratios: Type.Array(Type.String()) }),
  REGISTRATION_CREDIT: Type.Object({ coin: Type.String(), amount: Type.String() }),
  CONTRACT_FEES: Type.Object({ openFee: Type.String(), closeFee: Type.String() }),
  LANGUAGES: Type.Array(LanguageEntry),
  TIME_ZONES: Type.Array(TimeZone),
  DEFAULT_TIME_ZONE: Type.Object({ zoneId: Type.String(), offset: Type.Integer(), label: Type.String() }),
  TIME_FORMAT: Type.String(),
  HOME_COINS: Type.Array(Type.String()),
  DOWNLOADS: Type.Object({ android: Type.String(), apple: Type.String() }),
  CUSTOMER_SERVICE: Type.Object({ url: Type.String(), email: Type.String() }),
})
export type Settings = Static<typeof Settings>
