import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox'
import {
  AccountType,
  AddressEntry,
  Amount,
  AmountText,
  Article,
  Balance,
  CoinList,
  CoinText,
  Code,
  ContractDirection,
  ContractMarkInfo,
  ContractOrderType,
  TimeInForce,
  TriggerBy,
  ContractOrder,
  Email,
  ExchangeQuote,
  FinancialRecord,
  Follow,
  Holding,
  IdText,
  Kline,
  KlineIntervalSchema,
  LossSetting,
  Message,
  MoneyRequest,
  USDT_SCALE,
  MAX_PAGE_SIZE,
  Notice,
  OrderSide,
  OptionChain,
  OptionKindSchema,
  OptionPosition,
  OrderType,
  Page,
  PageQuery,
  Password,
  Period,
  Phone,
  Position,
  Product,
  RechargeCoin,
  SecondDirection,
  SecondOrder,
  Session,
  SpotOrder,
  SymbolText,
  Trader,
  UserInfo,
  WatchCoin,
  WelfareTask,
  WithdrawChannel,
} from './schemas'
import { fillPath } from './envelope'
import { ANY_ADDRESS_PATTERN, NETWORK_RULES } from './withdrawal'
import { AMOUNT_KEYWORD, type AmountMarker } from './money'
import type { WholeBounds } from './whole-number'
import { Settings } from './settings'
import { UserNotice } from './notices'

// The one table of every call the browser may make; the gateway registers routes from it and the
// client derives its fetch functions from it, so no path is written anywhere else.

export interface CachePolicy {
  /** served without asking upstream */
  freshMs: number
  /** after freshness: served at once while one refresh runs, and when upstream fails */
  staleMs: number
}

export interface CallDefinition {
  method: 'GET' | 'POST'
  /** `:name` segments are path parameters */
  path: string
  params?: TObject
  query?: TObject
  body?: TSchema
  /** multipart calls carry files; their text fields are checked like any other value */
  bodyType?: 'json' | 'multipart'
  /** largest request body in bytes, when the defaults of `bodyLimitOf` do not fit the call */
  bodyLimit?: number
  /** how long the gateway waits for the upstream's answer, when the deployment's default is too short */
  timeoutMs?: number
  auth: boolean
  data: TSchema
  cache?: CachePolicy
  /** set where the specification leaves the call out and this project decided its shape */
  definedByUs?: true
  /**
   * A call that sends money to an address: without its network field it goes to the coin's default
   * network (the first RECHARGE_SETTING row of the coin), and the address and memo are held to that one.
   */
  network?: { field: string; coinField: string }
  /** a call the upstream checks an e-mail or phone code on: the gateway and the sandbox refuse it without one */
  verificationCode?: VerificationCodeRule
  /**
   * The call ends every session of the caller's user: `always` (a sign-out, whatever the upstream
   * answers) or `onSuccess` (a new password). Only a call made with a session says so, since the
   * gateway ends the sessions of that token's user; a session the upstream ends any other way (a
   * password reset by e-mail) reaches the gateway on the upstream's feed.
   */
  endsSessions?: 'always' | 'onSuccess'
}

/**
 * Where a call carries its code and when it must: `always`, or while the named VERIFY_CODE_SETTING switch
 * is on; `onlyWhere` narrows it to requests whose field has that value (a fund, not a login, password change).
 */
export interface VerificationCodeRule {
  field: string
  when: 'always' | keyof Settings['VERIFY_CODE_SETTING']
  onlyWhere?: { field: string; value: string }
}

/**
 * True when `query` lacks the code `rule` asks for under the settings' VERIFY_CODE_SETTING switches; a
 * switch that cannot be read (null, missing) counts as on.
 */
export function lacksVerificationCode(
  rule: VerificationCodeRule,
  query: Record<string, unknown>,
  switches: Partial<Settings['VERIFY_CODE_SETTING']> | null,
): boolean {
  const value = query[rule.field]
  if (typeof value === 'string' && value !== '') return false
  if (rule.onlyWhere && query[rule.onlyWhere.field] !== rule.onlyWhere.value) return false
  return rule.when === 'always' || switches?.[rule.when] !== false
}

/** Upload calls wait this long for the upstream, past the deployment's default. */
export const UPLOAD_TIMEOUT_MS = 60_000

const Nothing = Type.Null()
const MemoText = Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' })
const QuoteIdText = Type.String({ pattern: '^[A-Za-z0-9]{1,32}$' })

/**
 * An object schema that also holds its `address` (and `memo`) to the format of the network its
 * `networkField` names (NETWORK_RULES), as JSON Schema `if`/`then` clauses the validator checks.
 */
function WithNetworkRules<T extends TObject>(schema: T, networkField: string): T {
  const clauses = Object.entries(NETWORK_RULES).map(([network, rule]) => {
    const memo = rule.memo ? { memo: { pattern: rule.memo.pattern } } : { memo: false }
    return {
      if: { properties: { [networkField]: { const: network } }, required: [networkField] },
      then: {
        properties: { address: { pattern: rule.address }, ...('memo' in schema.properties ? memo : {}) },
        ...(rule.memo?.required && 'memo' in schema.properties ? { required: ['memo'] } : {}),
      },
    }
  })
  return { ...schema, allOf: clauses }
}
/** an amount counted in the coin the call's `coin` field names */
const COIN_SCALE = { scale: { field: 'coin', kind: 'coin' } } as const
/** a price of the contract pair the call's `symbol` field names */
const CONTRACT_PRICE = { scale: { field: 'symbol', kind: 'contractPrice' } } as const
/** contract shares are whole: the exchange trades no fraction of one */
const WHOLE_SHARES = { scale: { places: 0 } } as const
/**
 * A price of a position the call names only by id: judged by USDT's places, the finest of the pairs
 * quoted in USDT (coinPrecisions), so no price a pair takes is refused; the upstream holds it to the pair.
 */
const POSITION_PRICE = USDT_SCALE
// generic, so each call keeps its field types and CallQuery/CallBody name them exactly
const Query = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false })
const Body = Query
const Paged = <P extends TProperties = Record<never, never>>(extra: P = {} as P) =>
  Query({ ...PageQuery, ...extra })

const SHORT: CachePolicy = { freshMs: 2000, staleMs: 30_000 }
const CONTENT: CachePolicy = { freshMs: 30_000, staleMs: 600_000 }

const LoginType = Type.Union([
  Type.Literal('email'),
  Type.Literal('phone'),
  Type.Literal('account'),
  Type.Literal('address'),
])
/** A status to list; in the order and position lists, "history" lists everything no longer open (ours). */
const StatusText = Type.String({ pattern: '^[a-z]{1,16}$' })

export const CALLS = {
  // ---- user ----
  register: {
    method: 'POST',
    path: '/api/user/register',
    body: Body({
      type: LoginType,
      username: Type.String({ minLength: 3, maxLength: 120 }),
      password: Password,
      code: Type.Optional(Code),
      inviteCode: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{0,16}$' })),
    }),
    auth: false,
    data: Type.Object({ ...Session.properties, credit: Type.String() }),
  },
  login: {
    method: 'POST',
    path: '/api/user/login',
    body: Body({
      type: Type.Optional(LoginType),
      username: Type.String({ minLength: 1, maxLength: 120 }),
      password: Password,
      code: Type.Optional(Code),
    }),
    auth: false,
    data: Session,
  },
  autoLogin: {
    method: 'POST',
    path: '/api/user/autoLogin',
    body: Body({ loginKey: Type.String({ minLength: 8, maxLength: 128 }) }),
    auth: false,
    data: Session,
    definedByUs: true,
  },
  loginOut: { method: 'POST', path: '/api/user/loginOut', auth: true, endsSessions: 'always', data: Nothing },
  updateUserLoginPwd: {
    method: 'POST',
    path: '/api/user/updateUserLoginPwd',
    query: Query({ oldPwd: Password, newPwd: Password, userId: Type.Optional(IdText) }),
    auth: true,
    endsSessions: 'onSuccess',
    data: Nothing,
  },
  backPwd: {
    method: 'POST',
    path: '/api/user/backPwd',
    query: Query({ email: Email, newPwd: Password, emailCode: Code }),
    verificationCode: { field: 'emailCode', when: 'always' },
    auth: false,
    data: Nothing,
  },
  sendEmailCode: {
    method: 'POST',
    path: '/api/user/sendEmailCode',
    query: Query({ codeType: Type.String({ pattern: '^[a-zA-Z]{1,20}$' }), email: Email }),
    auth: false,
    data: Nothing,
  },
  bindEmail: {
    method: 'POST',
    path: '/api/user/bindEmail',
    query: Query({ email: Email, emailCode: Code }),
    verificationCode: { field: 'emailCode', when: 'always' },
    auth: true,
    data: Nothing,
  },
  getCountryCode: {
    method: 'POST',
    path: '/api/user/getCountryCode',
    auth: false,
    data: Type.Array(Type.Object({ name: Type.String(), code: Type.String() })),
  },
  sendMobileCode: {
    method: 'POST',
    path: '/api/user/sendMobileCode',
    query: Query({ codeType: Type.String({ pattern: '^[a-zA-Z]{1,20}$' }), phone: Phone }),
    auth: false,
    data: Nothing,
  },
  bindPhone: {
    method: 'POST',
    path: '/api/user/bindPhone',
    query: Query({ phone: Phone, code: Code }),
    verificationCode: { field: 'code', when: 'always' },
    auth: true,
    data: Nothing,
  },
  unBindPhone: {
    method: 'POST',
    path: '/api/user/unBindPhone',
    query: Query({ code: Code }),
    verificationCode: { field: 'code', when: 'always' },
    auth: true,
    data: Nothing,
  },
  tardPwdSet: {
    method: 'POST',
    path: '/api/user/tardPwdSet',
    /** code: the e-mail or phone code, when the verification settings ask for one */
    query: Query({ pwd: Password, code: Type.Optional(Code) }),
    verificationCode: { field: 'code', when: 'withdrawPassword' },
    auth: true,
    data: Nothing,
  },
  updatePwd: {
    method: 'POST',
    path: '/api/user/updatePwd',
    query: Query({
      oldPwd: Password,
      newPwd: Password,
      signType: Type.Union([Type.Literal('login'), Type.Literal('fund')]),
      /** a fund password change: the e-mail or phone code, when the verification settings ask for one */
      code: Type.Optional(Code),
    }),
    verificationCode: {
      field: 'code',
      when: 'withdrawPassword',
      onlyWhere: { field: 'signType', value: 'fund' },
    },
    auth: true,
    endsSessions: 'onSuccess',
    data: Nothing,
  },
  uploadKYC: {
    method: 'POST',
    path: '/api/user/uploadKYC',
    query: Query({
      level: Type.Union([Type.Literal('primary'), Type.Literal('advanced')]),
      realName: Type.String({ minLength: 1, maxLength: 60 }),
      idNumber: Type.String({ pattern: '^[A-Za-z0-9-]{4,32}$' }),
      country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}$' })),
    }),
    bodyType: 'multipart',
    // the upstream stores and scans files of several MiB
    timeoutMs: UPLOAD_TIMEOUT_MS,
    auth: true,
    data: Type.Object({ kycStatus: UserInfo.properties.kycStatus, kycLevel: Type.Integer() }),
  },
  getProfit: {
    method: 'POST',
    path: '/api/user/getProfit',
    auth: true,
    data: Type.Object({ today: Type.String(), total: Type.String() }),
  },
  updateWithdrawAddress: {
    method: 'POST',
    path: '/api/user/updateWithdrawAddress',
    query: WithNetworkRules(
      Query({
        type: Type.String({ pattern: '^[A-Za-z0-9-]{2,16}$' }),
        address: Type.String({ pattern: ANY_ADDRESS_PATTERN }),
      }),
      'type',
    ),
    auth: true,
    data: Nothing,
  },
  withdrawAddress: {
    method: 'GET',
    path: '/api/user/withdrawAddress',
    auth: true,
    data: Type.Array(Type.Object({ id: Type.Integer(), type: Type.String(), address: Type.String() })),
  },
  addressBook: {
    method: 'GET',
    path: '/api/user/addressBook',
    auth: true,
    data: Type.Array(AddressEntry),
    definedByUs: true,
  },
  addressBookAdd: {
    method: 'POST',
    path: '/api/user/addressBook/add',
    body: WithNetworkRules(
      Body({
        network: Type.String({ pattern: '^[A-Za-z0-9-]{2,16}$' }),
        address: Type.String({ pattern: ANY_ADDRESS_PATTERN }),
        memo: Type.Optional(MemoText),
        label: Type.String({ minLength: 1, maxLength: 30 }),
      }),
      'network',
    ),
    auth: true,
    data: AddressEntry,
    definedByUs: true,
  },
  addressBookRemove: {
    method: 'POST',
    path: '/api/user/addressBook/remove',
    query: Query({ id: IdText }),
    auth: true,
    data: Nothing,
    definedByUs: true,
  },
  getInfo: {
    method: 'GET',
    path: '/api/user/getInfo',
    auth: true,
    data: Type.Object({ user: UserInfo, asset: Type.Array(Balance) }),
  },
  /** the light call made on every signed-in navigation */
  userInfo: { method: 'GET', path: '/api/user/info', auth: true, data: UserInfo, definedByUs: true },
  /** The user's recent events (shared/src/notices.ts) since an epoch ms, newest first: what a page missed. */
  userNotices: {
    method: 'GET',
    path: '/api/user/notices',
    query: Query({ since: Type.Optional(IdText) }),
    auth: true,
    data: Type.Array(UserNotice),
    definedByUs: true,
  },

  // ---- assets and common ----
  assetBalance: { method: 'GET', path: '/api/asset/assetBalance', auth: true, data: Type.Array(Balance) },
  transferFunds: {
    method: 'POST',
    path: '/api/asset/transferFunds',
    body: Body({ coin: CoinText, from: AccountType, to: AccountType, amount: Amount(COIN_SCALE) }),
    auth: true,
    data: Nothing,
  },
  getAppCurrencyList: {
    method: 'POST',
    path: '/api/common/getAppCurrencyList',
    auth: false,
    data: Type.Array(RechargeCoin),
  },
  getWithDrawCoinList: {
    method: 'POST',
    path: '/api/common/getWithDrawCoinList',
    auth: true,
    data: Type.Array(WithdrawChannel),
  },
  uploadOSS: {
    method: 'POST',
    path: '/api/common/upload/OSS',
    bodyType: 'multipart',
    // the upstream stores and scans files of several MiB
    timeoutMs: UPLOAD_TIMEOUT_MS,
    auth: true,
    data: Type.Object({ url: Type.String() }),
  },
  getAllSetting: {
    method: 'GET',
    path: '/api/common/getAllSetting',
    auth: false,
    data: Settings,
    cache: CONTENT,
  },
  getCoinList: { method: 'GET', path: '/api/common/getCoinList', auth: false, data: CoinList, cache: SHORT },
  getMt5Amount: {
    method: 'GET',
    path: '/api/common/getMt5Amount',
    query: Query({ coin: CoinText }),
    auth: false,
    data: Type.String(),
    cache: SHORT,
  },

  // ---- recharge and withdrawal ----
  payAddress: {
    method: 'POST',
    path: '/api/recharge/payAddress',
    body: Body({ coin: CoinText, chain: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{2,16}$' })) }),
    auth: true,
    data: Type.Object({
      coin: Type.String(),
      chain: Type.String(),
      address: Type.String(),
      // the memo or destination tag that tells the account on a network whose address is shared (XRP)
      memo: Type.Optional(Type.String()),
    }),
  },
  rechargeSubmit: {
    method: 'POST',
    path: '/api/recharge/submit',
    body: Body({
      coin: CoinText,
      amount: Amount(COIN_SCALE),
      chain: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{2,16}$' })),
      txHash: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{8,128}$' })),
      voucherUrl: Type.Optional(Type.String({ maxLength: 300 })),
    }),
    auth: true,
    data: MoneyRequest,
  },
  rechargeList: {
    method: 'GET',
    path: '/api/recharge/list',
    query: Paged({ coin: Type.Optional(CoinText) }),
    auth: true,
    data: Page(MoneyRequest),
  },
  rechargeBonusList: {
    method: 'GET',
    path: '/api/recharge/bonsList',
    query: Paged(),
    auth: true,
    data: Page(FinancialRecord),
  },
  rechargeAddress: {
    method: 'GET',
    path: '/api/recharge/getAdress',
    query: Query({ coin: CoinText, symbol: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{2,24}$' })) }),
    auth: true,
    data: Type.Record(Type.String(), Type.String()),
  },
  withdrawFreezeList: {
    method: 'POST',
    path: '/api/withdraw/freezeList',
    auth: true,
    data: Type.Array(MoneyRequest),
  },
  withdrawSubmit: {
    method: 'POST',
    path: '/api/withdraw/submit',
    query: WithNetworkRules(
      Query({
        coin: CoinText,
        amount: AmountText(COIN_SCALE),
        address: Type.String({ pattern: ANY_ADDRESS_PATTERN }),
        pwd: Password,
        chain: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{2,16}$' })),
        /** a memo or destination tag, for the networks that take one (ours) */
        memo: Type.Optional(MemoText),
      }),
      'chain',
    ),
    network: { field: 'chain', coinField: 'coin' },
    auth: true,
    data: MoneyRequest,
  },
  withdrawList: {
    method: 'GET',
    path: '/api/withdraw/list',
    query: Paged({ coin: Type.Optional(CoinText) }),
    auth: true,
    data: Page(MoneyRequest),
  },
  withdrawStatus: {
    method: 'POST',
    path: '/api/withdraw/getWithdrawStatus',
    auth: true,
    data: Type.Object({
      open: Type.Boolean(),
      usedToday: Type.Integer(),
      dayCount: Type.Integer(),
      freeLeft: Type.Integer(),
    }),
  },

  // ---- records and market ----
  financialRecords: {
    method: 'GET',
    path: '/api/record/financial',
    query: Paged({ coin: Type.Optional(CoinText), kind: Type.Optional(StatusText) }),
    auth: true,
    data: Page(FinancialRecord),
  },
  tradingRecords: {
    method: 'GET',
    path: '/api/record/trading',
    query: Paged({ symbol: Type.Optional(SymbolText) }),
    auth: true,
    data: Page(ContractOrder),
  },
  secondRecords: {
    method: 'GET',
    path: '/api/record/second',
    query: Paged({ symbol: Type.Optional(SymbolText) }),
    auth: true,
    data: Page(SecondOrder),
  },
  currencyRecords: {
    method: 'GET',
    path: '/api/record/currency',
    query: Paged({ symbol: Type.Optional(SymbolText) }),
    auth: true,
    data: Page(SpotOrder),
  },
  brokerRecords: {
    method: 'GET',
    path: '/api/record/broker',
    query: Paged(),
    auth: true,
    data: Page(FinancialRecord),
  },
  symbolList: {
    method: 'GET',
    path: '/api/symbolmanage/list',
    query: Query({
      isAsc: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      orderByColumn: Type.Optional(Type.String({ pattern: '^[a-zA-Z]{1,24}$' })),
    }),
    auth: false,
    data: Type.Array(WatchCoin),
    cache: SHORT,
  },
  kline: {
    method: 'GET',
    path: '/api/market/kline',
    query: Query({
      symbol: SymbolText,
      interval: KlineIntervalSchema,
      limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,2}|1000)$' })),
    }),
    auth: false,
    data: Type.Array(Kline),
    cache: { freshMs: 1000, staleMs: 10_000 },
    definedByUs: true,
  },

  // ---- exchange ----
  currencyPrice: {
    method: 'GET',
    path: '/api/texchange/getCurrencyPrice',
    query: Query({ currency: Type.String({ pattern: '^[A-Za-z0-9]{1,16},[A-Za-z0-9]{1,16}$' }) }),
    auth: false,
    data: Type.Object({ from: Type.String(), to: Type.String(), price: Type.String() }),
    cache: SHORT,
  },
  currencyExchange: {
    method: 'POST',
    path: '/api/texchange/currencyExchange',
    body: Body({
      from: CoinText,
      to: CoinText,
      amount: Amount({ scale: { field: 'from', kind: 'coin' } }),
      /** settles at this quote's price while it holds (ours); without it, at the current price */
      quoteId: Type.Optional(QuoteIdText),
    }),
    auth: true,
    data: Type.Object({
      from: Type.String(),
      to: Type.String(),
      paid: Type.String(),
      received: Type.String(),
      /** charged in the received coin (ours) */
      fee: Type.Optional(Type.String()),
    }),
  },
  exchangeQuote: {
    method: 'GET',
    path: '/api/texchange/quote',
    query: Query({ from: CoinText, to: CoinText }),
    auth: true,
    data: ExchangeQuote,
    definedByUs: true,
  },
  exchangeList: {
    method: 'GET',
    path: '/api/texchange/list',
    query: Paged(),
    auth: false,
    data: Page(Type.Object({ id: Type.Integer(), from: Type.String(), to: Type.String() })),
    cache: CONTENT,
  },

  // ---- notices ----
  noticeList: {
    method: 'GET',
    path: '/api/notice/list',
    query: Query({
      key: Type.String({ pattern: '^[A-Za-z_]{1,32}$' }),
      modelKey: Type.Optional(Type.String({ pattern: '^[A-Za-z_]{1,32}$' })),
    }),
    auth: false,
    data: Type.Array(Notice),
    cache: CONTENT,
  },
  optionRules: {
    method: 'GET',
    path: '/api/option/rules/list',
    query: Query({ key: Type.String({ pattern: '^[A-Za-z_]{1,32}$' }) }),
    auth: false,
    data: Type.Array(Article),
    cache: CONTENT,
  },
  /** the open expiries and strikes of one option coin, with the volatility and rate premiums use */
  optionChain: {
    method: 'GET',
    path: '/api/option/chain',
    query: Query({ coin: CoinText }),
    auth: false,
    data: OptionChain,
    definedByUs: true,
  },
  /**
   * Buys quantity units of a call or put. maxPremium is the most per unit the user accepts: the
   * order is refused when the premium at the time it arrives is above it. Premium plus fee is paid.
   */
  optionOrderSubmit: {
    method: 'POST',
    path: '/api/option/order/submit',
    body: Body({
      coin: CoinText,
      expiresAt: Type.Integer({ minimum: 0 }),
      // strikes and premiums are USDT prices: options settle in USDT
      strike: AmountText(USDT_SCALE),
      kind: OptionKindSchema,
      // units of the option's coin, in whole lots the upstream checks
      quantity: Amount(COIN_SCALE),
      maxPremium: Amount(USDT_SCALE),
    }),
    auth: true,
    data: OptionPosition,
    definedByUs: true,
  },
  /**
   * Sells an open position back to the exchange before expiry at its bid (the Black-Scholes premium
   * less OPTION_BID_SPREAD). minPrice is the least per unit the user accepts: the sale is refused when
   * the bid at the time it arrives is below it (0 takes any bid). The sale's fee follows the buying fee's rule. The
   * position is then settled, with the bid as salePrice and what was received as payout.
   */
  optionOrderSell: {
    method: 'POST',
    path: '/api/option/order/sell',
    body: Body({ id: Type.Integer({ minimum: 1 }), minPrice: Amount({ ...USDT_SCALE, allowZero: true }) }),
    auth: true,
    data: OptionPosition,
    definedByUs: true,
  },
  optionPositions: {
    method: 'GET',
    path: '/api/option/position/list',
    query: Paged({ status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('settled')])) }),
    auth: true,
    data: Page(OptionPosition),
    definedByUs: true,
  },

  // ---- trading ----
  spotOrderSubmit: {
    method: 'POST',
    path: '/api/currency/order/submit',
    body: Body({
      symbol: SymbolText,
      side: OrderSide,
      type: OrderType,
      price: Type.Optional(Amount({ scale: { field: 'symbol', kind: 'spotPrice' } })),
      amount: Amount({ scale: { field: 'symbol', kind: 'spotQuantity' } }),
      fundPwd: Type.Optional(Password),
    }),
    auth: true,
    data: SpotOrder,
  },
  spotOrderList: {
    method: 'GET',
    path: '/api/currency/order/orderList',
    query: Paged({ status: Type.Optional(StatusText), symbol: Type.Optional(SymbolText) }),
    auth: true,
    data: Page(SpotOrder),
  },
  spotOrderCancel: {
    method: 'POST',
    path: '/api/currency/order/cancel',
    query: Query({ id: IdText }),
    auth: true,
    /** the cancelled order; its frozen funds are back in the balance */
    data: SpotOrder,
    definedByUs: true,
  },
  periodList: {
    method: 'POST',
    path: '/api/period/list',
    body: Body({ symbol: Type.Optional(SymbolText) }),
    auth: false,
    data: Type.Array(Period),
  },
  secondOrderCreate: {
    method: 'POST',
    path: '/api/secondContractOrder/createSecondContractOrder',
    body: Body({
      symbol: SymbolText,
      periodId: Type.Integer({ minimum: 1 }),
      direction: SecondDirection,
      // the stake is held and paid in USDT whatever the pair (the upstream names no other coin)
      amount: Amount(USDT_SCALE),
      fundPwd: Type.Optional(Password),
    }),
    auth: true,
    data: SecondOrder,
  },
  secondOrderList: {
    method: 'POST',
    path: '/api/secondContractOrder/selectOrderList',
    body: Body({
      status: Type.Optional(StatusText),
      pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: 999_999_999 })),
      pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
    }),
    auth: true,
    data: Page(SecondOrder),
  },
  contractOrderSubmit: {
    method: 'POST',
    path: '/api/contract/order/submit',
    body: Body({
      symbol: SymbolText,
      direction: ContractDirection,
      /** the stop kinds are ours */
      type: ContractOrderType,
      price: Type.Optional(Amount(CONTRACT_PRICE)),
      leverage: Type.Integer({ minimum: 1, maximum: 1000 }),
      shares: Amount(WHOLE_SHARES),
      fundPwd: Type.Optional(Password),
      /** a take-profit and stop-loss set on the position the order opens (ours) */
      takeProfit: Type.Optional(Amount({ ...CONTRACT_PRICE, allowZero: true })),
      stopLoss: Type.Optional(Amount({ ...CONTRACT_PRICE, allowZero: true })),
      /** what the stop trigger and the take-profit and stop-loss watch; last when not said (ours) */
      triggerBy: Type.Optional(TriggerBy),
      /** a stop order's trigger (ours) */
      triggerPrice: Type.Optional(Amount(CONTRACT_PRICE)),
      /** a limit order's life, GTC when not said; post-only and reduce-only (ours) */
      timeInForce: Type.Optional(TimeInForce),
      postOnly: Type.Optional(Type.Boolean()),
      reduceOnly: Type.Optional(Type.Boolean()),
    }),
    auth: true,
    data: ContractOrder,
  },
  contractOrderAmend: {
    method: 'POST',
    path: '/api/contract/order/amend',
    /**
     * Changes an open order's limit, shares or (while it waits) trigger, keeping its id; at least one.
     * Prices are judged by USDT's places as the call names no pair; the sandbox holds them to the pair.
     */
    body: Body({
      id: Type.Integer({ minimum: 1 }),
      price: Type.Optional(Amount(POSITION_PRICE)),
      shares: Type.Optional(Amount(WHOLE_SHARES)),
      triggerPrice: Type.Optional(Amount(POSITION_PRICE)),
    }),
    auth: true,
    data: ContractOrder,
    definedByUs: true,
  },
  contractMarkInfo: {
    method: 'GET',
    path: '/api/contract/mark',
    query: Query({ symbol: SymbolText }),
    auth: false,
    data: ContractMarkInfo,
    definedByUs: true,
  },
  contractOrderList: {
    method: 'GET',
    path: '/api/contract/order/list',
    query: Query({ status: Type.Optional(StatusText) }),
    auth: true,
    data: Type.Array(ContractOrder),
  },
  contractOrderCancel: {
    method: 'POST',
    path: '/api/contract/order/canCelOrder',
    query: Query({ id: IdText }),
    auth: true,
    data: Nothing,
  },
  positionList: {
    method: 'GET',
    path: '/api/contract/position/list',
    query: Paged({ status: Type.Optional(StatusText) }),
    auth: true,
    data: Page(Position),
  },
  positionStop: {
    method: 'POST',
    path: '/api/contract/position/stopOrder',
    /**
     * Without shares the whole position closes at market. shares closes that many (a partial
     * close); price rests a close order at that limit instead of closing at market. Both are ours.
     */
    query: Query({
      id: IdText,
      shares: Type.Optional(AmountText(WHOLE_SHARES)),
      price: Type.Optional(AmountText(POSITION_PRICE)),
    }),
    auth: true,
    data: Position,
  },
  positionAdjustMargin: {
    method: 'POST',
    path: '/api/contract/position/adjustAmount',
    /** flag 1 adds margin, 0 takes it out */
    query: Query({
      id: IdText,
      money: AmountText(USDT_SCALE),
      flag: Type.Union([Type.Literal('0'), Type.Literal('1')]),
    }),
    auth: true,
    data: Position,
  },
  lossList: { method: 'GET', path: '/api/contract/loss/list', auth: true, data: Type.Array(LossSetting) },
  lossSet: {
    method: 'POST',
    path: '/api/contract/loss/sett',
    body: Body({
      positionId: Type.Integer({ minimum: 1 }),
      stopLoss: Type.Optional(Amount({ ...POSITION_PRICE, allowZero: true })),
      takeProfit: Type.Optional(Amount({ ...POSITION_PRICE, allowZero: true })),
      /** last when not said (ours) */
      triggerBy: Type.Optional(TriggerBy),
    }),
    auth: true,
    data: LossSetting,
  },
  lossCancel: {
    method: 'POST',
    path: '/api/contract/loss/cancel',
    query: Query({ id: IdText }),
    auth: true,
    data: Nothing,
  },
  watchlistAdd: {
    method: 'POST',
    path: '/api/userCoin/save',
    body: Body({ symbol: SymbolText }),
    auth: true,
    data: WatchCoin,
  },
  watchlist: { method: 'GET', path: '/api/userCoin/getUserCoin', auth: true, data: Type.Array(WatchCoin) },
  watchlistRemove: {
    method: 'POST',
    path: '/api/userCoin/remove/:id',
    params: Type.Object({ id: IdText }),
    auth: true,
    data: Nothing,
  },

  // ---- copy trading, proxy investing, finance, promotion, welfare, help, messages ----
  traderList: {
    method: 'GET',
    path: '/api/follow/traders',
    query: Paged(),
    auth: false,
    data: Page(Trader),
    cache: SHORT,
    definedByUs: true,
  },
  followStart: {
    method: 'POST',
    path: '/api/follow/start',
    // copy trading allocates USDT, the coin traders' minimums are set in
    body: Body({ traderId: Type.Integer({ minimum: 1 }), amount: Amount(USDT_SCALE) }),
    auth: true,
    data: Follow,
    definedByUs: true,
  },
  followStop: {
    method: 'POST',
    path: '/api/follow/stop',
    query: Query({ id: IdText }),
    auth: true,
    data: Follow,
    definedByUs: true,
  },
  followMine: {
    method: 'GET',
    path: '/api/follow/mine',
    auth: true,
    data: Type.Array(Follow),
    definedByUs: true,
  },
  traderApply: {
    method: 'POST',
    path: '/api/follow/apply',
    // the trader's own stake, in USDT like TRADER_SETTING.traderMinAmount
    body: Body({ nickname: Type.String({ minLength: 2, maxLength: 30 }), amount: Amount(USDT_SCALE) }),
    auth: true,
    data: Trader,
    definedByUs: true,
  },
  proxyProducts: {
    method: 'GET',
    path: '/api/proxy/products',
    auth: false,
    data: Type.Array(Product),
    cache: CONTENT,
    definedByUs: true,
  },
  proxySubscribe: {
    method: 'POST',
    path: '/api/proxy/subscribe',
    body: Body({
      productId: Type.Integer({ minimum: 1 }),
      amount: Amount({ scale: { product: 'proxy', field: 'productId' } }),
    }),
    auth: true,
    data: Holding,
    definedByUs: true,
  },
  proxyRecords: {
    method: 'GET',
    path: '/api/proxy/records',
    query: Paged(),
    auth: true,
    data: Page(Holding),
    definedByUs: true,
  },
  proxyRedeem: {
    method: 'POST',
    path: '/api/proxy/redeem',
    query: Query({ id: IdText }),
    auth: true,
    data: Holding,
    definedByUs: true,
  },
  proxyEarnings: {
    method: 'GET',
    path: '/api/proxy/earnings',
    query: Paged(),
    auth: true,
    data: Page(FinancialRecord),
    definedByUs: true,
  },
  financeProducts: {
    method: 'GET',
    path: '/api/finance/products',
    auth: false,
    data: Type.Array(Product),
    cache: CONTENT,
    definedByUs: true,
  },
  financeSubscribe: {
    method: 'POST',
    path: '/api/finance/subscribe',
    body: Body({
      productId: Type.Integer({ minimum: 1 }),
      amount: Amount({ scale: { product: 'finance', field: 'productId' } }),
    }),
    auth: true,
    data: Holding,
    definedByUs: true,
  },
  financeOrders: {
    method: 'GET',
    path: '/api/finance/orders',
    query: Paged(),
    auth: true,
    data: Page(Holding),
    definedByUs: true,
  },
  financeRedeem: {
    method: 'POST',
    path: '/api/finance/redeem',
    query: Query({ id: IdText }),
    auth: true,
    data: Holding,
    definedByUs: true,
  },
  inviteInfo: {
    method: 'GET',
    path: '/api/invite/info',
    auth: true,
    data: Type.Object({
      inviteCode: Type.String(),
      inviteUrl: Type.String(),
      teamSize: Type.Integer(),
      rebateTotal: Type.String(),
    }),
    definedByUs: true,
  },
  inviteTeam: {
    method: 'GET',
    path: '/api/invite/team',
    query: Paged(),
    auth: true,
    data: Page(Type.Object({ userId: Type.String(), username: Type.String(), createdAt: Type.Number() })),
    definedByUs: true,
  },
  welfareTasks: {
    method: 'GET',
    path: '/api/welfare/tasks',
    auth: true,
    data: Type.Array(WelfareTask),
    definedByUs: true,
  },
  welfareClaim: {
    method: 'POST',
    path: '/api/welfare/claim',
    query: Query({ id: IdText }),
    auth: true,
    data: WelfareTask,
    definedByUs: true,
  },
  helpList: {
    method: 'GET',
    path: '/api/help/list',
    auth: false,
    data: Type.Array(Article),
    cache: CONTENT,
    definedByUs: true,
  },
  helpDetail: {
    method: 'GET',
    path: '/api/help/detail',
    query: Query({ id: IdText }),
    auth: false,
    data: Article,
    cache: CONTENT,
    definedByUs: true,
  },
  messageList: {
    method: 'GET',
    path: '/api/message/list',
    query: Paged(),
    auth: true,
    data: Page(Message),
    definedByUs: true,
  },
  messageRead: {
    method: 'POST',
    path: '/api/message/read',
    query: Query({ id: IdText }),
    auth: true,
    data: Message,
    definedByUs: true,
  },
} as const satisfies Record<string, CallDefinition>

export type CallName = keyof typeof CALLS
export type Call<N extends CallName> = (typeof CALLS)[N]

type StaticOf<S> = S extends TSchema ? Static<S> : undefined
export type CallQuery<N extends CallName> = Call<N> extends { query: infer Q } ? StaticOf<Q> : undefined
export type CallBody<N extends CallName> = Call<N> extends { body: infer B } ? StaticOf<B> : undefined
export type CallParams<N extends CallName> = Call<N> extends { params: infer P } ? StaticOf<P> : undefined
export type CallData<N extends CallName> = Static<Call<N>['data']>

export const CALL_NAMES = Object.keys(CALLS) as CallName[]

/** Every JSON body in the table is a handful of short fields; this leaves room for each one escaped in full. */
export const JSON_BODY_LIMIT_BYTES = 4096
/** A call without a body schema refuses any body before reading it; this bound is the backstop. */
export const NO_BODY_LIMIT_BYTES = 64

/**
 * The largest request body a call accepts: its own `bodyLimit`, else the JSON or no-body default;
 * `null` for uploads, whose limit is the deployment's upload size.
 */
export function bodyLimitOf(definition: CallDefinition): number | null {
  if (definition.bodyLimit !== undefined) return definition.bodyLimit
  if (definition.bodyType === 'multipart') return null
  return definition.body ? JSON_BODY_LIMIT_BYTES : NO_BODY_LIMIT_BYTES
}

/** Fills `:name` segments; values are encoded so a parameter can never add a path segment. */
export function callPath(name: CallName, params?: Record<string, string | number>): string {
  return fillPath(CALLS[name].path, params, name)
}

/** A field of a call that carries an amount, and the money rule it is judged by. */
export interface AmountField {
  part: 'query' | 'body'
  key: string
  rule: AmountMarker
}

/** The amount fields of a call, found by the schema keyword `AmountText` and `Amount` mark them with. */
export function amountFieldsOf(definition: CallDefinition): AmountField[] {
  const fields: AmountField[] = []
  for (const part of ['query', 'body'] as const) {
    const properties = (definition[part] as Partial<TObject> | undefined)?.properties ?? {}
    for (const [key, schema] of Object.entries(properties)) {
      const rule = (schema as Record<string, unknown>)[AMOUNT_KEYWORD] as AmountMarker | undefined
      if (rule) fields.push({ part, key, rule })
    }
  }
  return fields
}

/** A whole-number field of a call's JSON body, with the bounds its schema gives it. */
export interface WholeField {
  key: string
  bounds: WholeBounds
}

/** The `integer` fields of a call's body: the ones a float would judge by other digits than were sent. */
export function wholeFieldsOf(definition: CallDefinition): WholeField[] {
  const properties = (definition.body as Partial<TObject> | undefined)?.properties ?? {}
  const fields: WholeField[] = []
  for (const [key, schema] of Object.entries(properties)) {
    const { type, minimum, maximum } = schema as { type?: unknown; minimum?: number; maximum?: number }
    if (type === 'integer') fields.push({ key, bounds: { minimum, maximum } })
  }
  return fields
}
