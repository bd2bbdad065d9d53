import { Type, type Static, type TSchema } from 'typebox'
import { PASSWORD_LENGTH, PHONE_PATTERN, RECORD_KINDS, type RecordKind } from './patterns'
import { AMOUNT_KEYWORD, MONEY_TEXT_PATTERN, type AmountMarker } from './money'
import { KLINE_INTERVALS } from './protocol'

// ---- primitives: query values always arrive as text, so their schemas are strings with patterns ----

export const IdText = Type.String({ pattern: '^[0-9]{1,19}$' })
export const IntText = Type.String({ pattern: '^[0-9]{1,9}$' })

/**
 * An amount as text (query values), marked with its money rule: the gateway judges it with `checkAmount`
 * before the schema runs, so a refused amount is answered `invalidAmount`; the pattern backs that up.
 */
export function AmountText(rule: AmountMarker) {
  return Type.String({ pattern: MONEY_TEXT_PATTERN, maxLength: 40, [AMOUNT_KEYWORD]: rule })
}
/**
 * An amount in a JSON body: a decimal string, or a JSON number whose text as written in the body (not
 * the float it parses to) is judged by the money rule.
 */
export function Amount(rule: AmountMarker) {
  return Type.Union(
    [Type.String({ pattern: MONEY_TEXT_PATTERN, maxLength: 40 }), Type.Number({ minimum: 0 })],
    {
      [AMOUNT_KEYWORD]: rule,
    },
  )
}
/** An amount of USDT: margins, stakes and premiums the exchange counts in its settlement coin. */
export const USDT_SCALE = { scale: { coin: 'usdt' } } as const
export const SymbolText = Type.String({ pattern: '^[a-z0-9]{2,24}$' })
export const CoinText = Type.String({ pattern: '^[a-zA-Z0-9]{1,16}$' })
export const Email = Type.String({ format: 'email', maxLength: 120 })
export const Phone = Type.String({ pattern: PHONE_PATTERN })
export const Password = Type.String({ minLength: PASSWORD_LENGTH.min, maxLength: PASSWORD_LENGTH.max })
export const Code = Type.String({ pattern: '^[0-9A-Za-z]{4,8}$' })
/** The largest page a list call serves; a client wanting more asks for the next page. */
export const MAX_PAGE_SIZE = 100
export const PageQuery = {
  /** 1 and up */
  pageNum: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$' })),
  /** 1 to MAX_PAGE_SIZE */
  pageSize: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]?|100)$' })),
}
export const AccountType = Type.Union([
  Type.Literal('platform'),
  Type.Literal('financial'),
  Type.Literal('contract'),
])
export type AccountType = Static<typeof AccountType>
export const OrderSide = Type.Union([Type.Literal('buy'), Type.Literal('sell')])
export const OrderType = Type.Union([Type.Literal('market'), Type.Literal('limit')])
/** a contract's side: long gains when the price rises */
export const ContractDirection = Type.Union([Type.Literal('long'), Type.Literal('short')])
/**
 * What a take-profit or stop-loss watches (ours): the last traded price, or the mark price (the
 * middle of the book), which one print far from the book cannot move.
 */
export const TriggerBy = Type.Union([Type.Literal('last'), Type.Literal('mark')])
export type TriggerBy = Static<typeof TriggerBy>
/**
 * A contract order's kind (the stop kinds are ours): a stop order waits until the price it watches
 * reaches its trigger price, then goes to the market (stopMarket) or rests at its limit (stopLimit).
 */
export const ContractOrderType = Type.Union([
  Type.Literal('market'),
  Type.Literal('limit'),
  Type.Literal('stopMarket'),
  Type.Literal('stopLimit'),
])
export type ContractOrderType = Static<typeof ContractOrderType>
/**
 * How long a limit order lives (ours): GTC rests until filled or cancelled; IOC takes what the book
 * offers within its limit now and drops the rest; FOK fills whole now or not at all.
 */
export const TimeInForce = Type.Union([Type.Literal('GTC'), Type.Literal('IOC'), Type.Literal('FOK')])
export type TimeInForce = Static<typeof TimeInForce>
/**
 * What closed a position (ours): manual, an order of the user's own (a close at the market or at a
 * price, a reduce-only order); takeProfit or stopLoss, the position's exit reached by the price it
 * watches; liquidation, the loss at the mark price reached the whole margin.
 */
export const CloseReason = Type.Union([
  Type.Literal('manual'),
  Type.Literal('takeProfit'),
  Type.Literal('stopLoss'),
  Type.Literal('liquidation'),
])
export type CloseReason = Static<typeof CloseReason>
/** a second contract's bet on the price at period end */
export const SecondDirection = Type.Union([Type.Literal('up'), Type.Literal('down')])

// ---- response envelope ----

export function Page<T extends TSchema>(row: T) {
  return Type.Object({ rows: Type.Array(row), total: Type.Integer() })
}

export interface Envelope<T = unknown> {
  code: number | string
  msg: string
  data?: T
}

// ---- entities ----

export const UserInfo = Type.Object({
  userId: Type.String(),
  username: Type.String(),
  email: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
  inviteCode: Type.String(),
  hasFundPassword: Type.Boolean(),
  kycLevel: Type.Integer({ minimum: 0, maximum: 2 }),
  kycStatus: Type.Union([
    Type.Literal('none'),
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('rejected'),
  ]),
  vipLevel: Type.Integer({ minimum: 0, maximum: 12 }),
  withdrawAddress: Type.Object({ address: Type.String(), type: Type.Optional(Type.String()) }),
  createdAt: Type.Number(),
})
export type UserInfo = Static<typeof UserInfo>

export const Balance = Type.Object({
  coin: Type.String(),
  account: AccountType,
  available: Type.String(),
  frozen: Type.String(),
})
export type Balance = Static<typeof Balance>

export const Session = Type.Object({
  satoken: Type.String(),
  userId: Type.String(),
  loginKey: Type.String(),
  expiresAt: Type.Number(),
})
export type Session = Static<typeof Session>

export const CoinEntry = Type.Object({
  baseCoin: Type.String(),
  coin: Type.String(),
  symbol: Type.String(),
  market: Type.String(),
  customizeFlag: Type.Integer(),
  showSymbol: Type.String(),
  coinType: Type.Integer(),
  amount: Type.String(),
  open: Type.String(),
})
export type CoinEntry = Static<typeof CoinEntry>

export const SpotPair = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  coin: Type.String(),
  baseCoin: Type.String(),
  basePrecision: Type.Integer(),
  coinPrecision: Type.Integer(),
  buyMax: Type.String(),
  sellMin: Type.String(),
  minSell: Type.String(),
  orderMin: Type.String(),
  orderMax: Type.String(),
  feeRate: Type.String(),
  enable: Type.Boolean(),
  isDeal: Type.Boolean(),
  isShow: Type.Boolean(),
  limitedBuy: Type.Boolean(),
  limitedSell: Type.Boolean(),
  marketBuy: Type.Boolean(),
  marketSell: Type.Boolean(),
})
export type SpotPair = Static<typeof SpotPair>

export const ContractPair = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  coin: Type.String(),
  baseCoin: Type.String(),
  showSymbol: Type.String(),
  market: Type.String(),
  leverage: Type.String(),
  minShare: Type.String(),
  maxShare: Type.String(),
  shareNumber: Type.String(),
  openFee: Type.String(),
  closeFee: Type.String(),
  usdtRate: Type.String(),
  baseScale: Type.Integer(),
  coinScale: Type.Integer(),
  intervalHour: Type.Integer(),
  deliveryDays: Type.Integer(),
  enable: Type.Boolean(),
  sort: Type.Integer(),
  visible: Type.Boolean(),
  amount: Type.String(),
  open: Type.String(),
})
export type ContractPair = Static<typeof ContractPair>

export const WatchCoin = Type.Object({
  id: Type.Integer(),
  coin: Type.String(),
  symbol: Type.String(),
  showSymbol: Type.String(),
  type: Type.Integer(),
  status: Type.Integer(),
  showFlag: Type.Integer(),
  sort: Type.Integer(),
})
export type WatchCoin = Static<typeof WatchCoin>

export const OptionCoin = Type.Object({
  ...WatchCoin.properties,
  feeType: Type.Integer(),
  feeValue: Type.String(),
})
export type OptionCoin = Static<typeof OptionCoin>

export const CoinList = Type.Object({
  coinList: Type.Array(CoinEntry),
  currencyList: Type.Array(SpotPair),
  contractList: Type.Array(ContractPair),
  optionList: Type.Array(OptionCoin),
})
export type CoinList = Static<typeof CoinList>

export const Period = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  seconds: Type.Integer(),
  rate: Type.String(),
  minAmount: Type.String(),
  maxAmount: Type.String(),
})
export type Period = Static<typeof Period>

export const OrderStatus = Type.Union([
  Type.Literal('open'),
  Type.Literal('filled'),
  Type.Literal('cancelled'),
  Type.Literal('rejected'),
])

export const SpotOrder = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  side: OrderSide,
  type: OrderType,
  /** the limit the order was placed at; empty for a market order */
  price: Type.String(),
  amount: Type.String(),
  /** how much of amount has traded so far */
  filledAmount: Type.String(),
  /** the average price of what has traded; empty while nothing has */
  filledPrice: Type.String(),
  fee: Type.String(),
  status: OrderStatus,
  createdAt: Type.Number(),
})
export type SpotOrder = Static<typeof SpotOrder>

export const ContractOrder = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  direction: ContractDirection,
  type: ContractOrderType,
  price: Type.String(),
  leverage: Type.Integer(),
  shares: Type.String(),
  margin: Type.String(),
  status: OrderStatus,
  createdAt: Type.Number(),
  /** set on a close order: it closes `shares` of this position at `price` (ours) */
  positionId: Type.Optional(Type.Integer()),
  /** how many of `shares` have filled (ours) */
  filledShares: Type.Optional(Type.String()),
  /** the average price they filled at; empty while none has (ours) */
  filledPrice: Type.Optional(Type.String()),
  /** the fee the order paid when it filled: the open fee, or a close order's close fee (ours) */
  fee: Type.Optional(Type.String()),
  /** a stop order's trigger price and the price it watches (ours) */
  triggerPrice: Type.Optional(Type.String()),
  triggerBy: Type.Optional(TriggerBy),
  /** when a stop order's trigger was reached; unset while it waits (ours) */
  triggeredAt: Type.Optional(Type.Number()),
  /** GTC when not said (ours) */
  timeInForce: Type.Optional(TimeInForce),
  /** a limit that only rests: refused when it would fill at once (ours) */
  postOnly: Type.Optional(Type.Boolean()),
  /** only closes shares of the position on its side, never opens (ours) */
  reduceOnly: Type.Optional(Type.Boolean()),
  /** set once a close filled: what closed the position (ours) */
  closeReason: Type.Optional(CloseReason),
  /**
   * set once a close filled: the PnL it booked before its fee, (fill − entry) × coins, signed by
   * direction; a liquidation's is the whole margin lost (ours)
   */
  pnl: Type.Optional(Type.String()),
})
export type ContractOrder = Static<typeof ContractOrder>

export const Position = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  direction: ContractDirection,
  leverage: Type.Integer(),
  shares: Type.String(),
  openPrice: Type.String(),
  margin: Type.String(),
  liquidationPrice: Type.String(),
  closePrice: Type.String(),
  pnl: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Literal('liquidated')]),
  createdAt: Type.Number(),
  /** the fee paid opening these shares (ours) */
  openFee: Type.Optional(Type.String()),
  /** the fee paid closing them; set once closed (ours) */
  closeFee: Type.Optional(Type.String()),
  /** when they closed or were liquidated (ours) */
  closedAt: Type.Optional(Type.Number()),
  /** the mark price the open position's pnl and liquidation are judged by (ours) */
  markPrice: Type.Optional(Type.String()),
  /** funding paid (negative) or received since it opened (ours) */
  funding: Type.Optional(Type.String()),
})
export type Position = Static<typeof Position>

/**
 * A contract pair's reference prices and funding (ours): the index (the median of the recent last
 * prices, which a lone print cannot move), the mark (a moving average of the index, which pnl and
 * liquidation follow), and the funding rate open positions pay at the next funding time.
 */
export const ContractMarkInfo = Type.Object({
  symbol: Type.String(),
  lastPrice: Type.String(),
  indexPrice: Type.String(),
  markPrice: Type.String(),
  /** a fraction per interval: positive, longs pay shorts */
  fundingRate: Type.String(),
  nextFundingTime: Type.Number(),
  fundingIntervalMs: Type.Integer(),
  /** the highest leverage the pair takes; every whole leverage from 1 up to it is accepted */
  maxLeverage: Type.Integer(),
})
export type ContractMarkInfo = Static<typeof ContractMarkInfo>

export const LossSetting = Type.Object({
  id: Type.Integer(),
  positionId: Type.Integer(),
  stopLoss: Type.String(),
  takeProfit: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('triggered'), Type.Literal('cancelled')]),
  /** the price it watches; last when not said (ours) */
  triggerBy: Type.Optional(TriggerBy),
})
export type LossSetting = Static<typeof LossSetting>

export const SecondOrder = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  direction: SecondDirection,
  amount: Type.String(),
  seconds: Type.Integer(),
  rate: Type.String(),
  openPrice: Type.String(),
  closePrice: Type.String(),
  profit: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('win'), Type.Literal('lose'), Type.Literal('draw')]),
  createdAt: Type.Number(),
  settleAt: Type.Number(),
})
export type SecondOrder = Static<typeof SecondOrder>

export const KlineIntervalSchema = Type.Unsafe<(typeof KLINE_INTERVALS)[number]>({
  type: 'string',
  enum: [...KLINE_INTERVALS],
})

export const Kline = Type.Object({
  time: Type.Number(),
  open: Type.String(),
  high: Type.String(),
  low: Type.String(),
  close: Type.String(),
  vol: Type.String(),
})
export type Kline = Static<typeof Kline>

export const FinancialRecord = Type.Object({
  id: Type.Integer(),
  coin: Type.String(),
  account: AccountType,
  amount: Type.String(),
  balanceAfter: Type.String(),
  kind: Type.Unsafe<RecordKind>({ type: 'string', enum: [...RECORD_KINDS] }),
  note: Type.String(),
  createdAt: Type.Number(),
})
export type FinancialRecord = Static<typeof FinancialRecord>

export const RechargeCoin = Type.Object({
  coinName: Type.String(),
  coin: Type.String(),
  coinAddress: Type.String(),
  rechargeMin: Type.String(),
  rechargeMax: Type.String(),
  rechargeNum: Type.Integer(),
  useSys: Type.Boolean(),
  useThird: Type.Boolean(),
  thirdList: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
})
export type RechargeCoin = Static<typeof RechargeCoin>

export const WithdrawChannel = Type.Object({
  rechargeName: Type.String(),
  rechargeType: Type.String(),
  fee: Type.String(),
  ratio: Type.String(),
  dayWithdrawalNum: Type.Integer(),
  freeNum: Type.Integer(),
  withdrawalMax: Type.String(),
  withdrawalMix: Type.String(),
  useSys: Type.Boolean(),
  useThird: Type.Boolean(),
  thirdList: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      currency: Type.String(),
      coin: Type.String(),
      useAddress: Type.Boolean(),
      status: Type.Integer(),
    }),
  ),
})
export type WithdrawChannel = Static<typeof WithdrawChannel>

export const MoneyRequest = Type.Object({
  id: Type.Integer(),
  coin: Type.String(),
  amount: Type.String(),
  fee: Type.String(),
  address: Type.String(),
  status: Type.Union([
    Type.Literal('frozen'),
    Type.Literal('pending'),
    Type.Literal('completed'),
    Type.Literal('rejected'),
  ]),
  createdAt: Type.Number(),
  /** the network the money moved on, e.g. TRC20 (ours) */
  chain: Type.Optional(Type.String()),
  /** the on-chain transaction, once there is one (ours) */
  txHash: Type.Optional(Type.String()),
})
export type MoneyRequest = Static<typeof MoneyRequest>

export const Notice = Type.Object({
  id: Type.Integer(),
  key: Type.String(),
  modelKey: Type.String(),
  title: Type.String(),
  content: Type.String(),
  createdAt: Type.Number(),
})
export type Notice = Static<typeof Notice>

/** A flash-exchange price that holds until `expiresAt` for the user it was given to (ours). */
export const ExchangeQuote = Type.Object({
  quoteId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  /** units of `to` per unit of `from` */
  price: Type.String(),
  /** the fee as a fraction of the converted amount, e.g. 0.002 */
  feeRate: Type.String(),
  validSeconds: Type.Integer(),
  expiresAt: Type.Number(),
})
export type ExchangeQuote = Static<typeof ExchangeQuote>

/** An entry of the user's withdrawal address book (ours). */
export const AddressEntry = Type.Object({
  id: Type.Integer(),
  network: Type.String(),
  address: Type.String(),
  memo: Type.String(),
  label: Type.String(),
  createdAt: Type.Number(),
})
export type AddressEntry = Static<typeof AddressEntry>

export const Product = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  coin: Type.String(),
  days: Type.Integer(),
  dailyRate: Type.String(),
  minAmount: Type.String(),
  maxAmount: Type.String(),
  /** share of the stake kept back when redeemed before maturity; "0": none, and the interest earned so far is paid (ours) */
  redeemPenalty: Type.String(),
  /** hours from a redemption until the payout reaches the platform account (ours) */
  settleHours: Type.Integer(),
})
export type Product = Static<typeof Product>

export const Holding = Type.Object({
  id: Type.Integer(),
  productId: Type.Integer(),
  name: Type.String(),
  coin: Type.String(),
  amount: Type.String(),
  earned: Type.String(),
  /** redeeming: redeemed early, the payout arrives at settlesAt; redeemed: paid out early (ours) */
  status: Type.Union([
    Type.Literal('running'),
    Type.Literal('finished'),
    Type.Literal('redeeming'),
    Type.Literal('redeemed'),
  ]),
  createdAt: Type.Number(),
  endsAt: Type.Number(),
  /** what was or will be paid back: stake, interest, less any penalty; "0" while running (ours) */
  payout: Type.String(),
  /** when a redemption's payout arrives; 0 until redeemed (ours) */
  settlesAt: Type.Number(),
})
export type Holding = Static<typeof Holding>

export const Trader = Type.Object({
  id: Type.Integer(),
  nickname: Type.String(),
  winRate: Type.String(),
  totalProfit: Type.String(),
  followers: Type.Integer(),
  maxFollowers: Type.Integer(),
  minAmount: Type.String(),
  shareRate: Type.String(),
})
export type Trader = Static<typeof Trader>

export const Follow = Type.Object({
  id: Type.Integer(),
  traderId: Type.Integer(),
  nickname: Type.String(),
  amount: Type.String(),
  profit: Type.String(),
  status: Type.Union([Type.Literal('following'), Type.Literal('stopped')]),
  createdAt: Type.Number(),
})
export type Follow = Static<typeof Follow>

export const WelfareTask = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  reward: Type.String(),
  coin: Type.String(),
  status: Type.Union([Type.Literal('todo'), Type.Literal('claimable'), Type.Literal('claimed')]),
})
export type WelfareTask = Static<typeof WelfareTask>

export const Message = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  read: Type.Boolean(),
  createdAt: Type.Number(),
})
export type Message = Static<typeof Message>

export const Article = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
})
export type Article = Static<typeof Article>

// ---- options (ours: the specification names option coins and rules, but no chain or order) ----

export const OptionKindSchema = Type.Union([Type.Literal('call'), Type.Literal('put')])

/** One expiry of an option coin and the strikes listed for it; strikes are never withdrawn. */
export const OptionExpiry = Type.Object({
  /** epoch ms, exchange time; trading in the expiry stops then and its positions settle */
  expiresAt: Type.Number(),
  strikes: Type.Array(Type.String()),
})
export type OptionExpiry = Static<typeof OptionExpiry>

/** What a client needs to price and order the options of one coin. */
export const OptionChain = Type.Object({
  coin: Type.String(),
  symbol: Type.String(),
  /** exchange time the chain was read at, so a client can measure its clock against it */
  now: Type.Number(),
  spot: Type.String(),
  /** annual volatility as a fraction, the one every premium is priced with */
  volatility: Type.String(),
  /** annual continuously compounded rate as a fraction */
  rate: Type.String(),
  feeType: Type.Integer(),
  feeValue: Type.String(),
  /** quantities (in units of the coin) are whole multiples of this */
  lotSize: Type.String(),
  maxQuantity: Type.String(),
  expiries: Type.Array(OptionExpiry),
})
export type OptionChain = Static<typeof OptionChain>

/** A bought option; cash-settled in usdt at expiry against the feed price, or sold back before it. */
export const OptionPosition = Type.Object({
  id: Type.Integer(),
  coin: Type.String(),
  symbol: Type.String(),
  kind: OptionKindSchema,
  strike: Type.String(),
  expiresAt: Type.Number(),
  quantity: Type.String(),
  /** premium paid per unit */
  premium: Type.String(),
  /** premium paid in all (quantity × premium) */
  cost: Type.String(),
  fee: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('settled')]),
  /** the feed price at expiry; empty while open */
  settlePrice: Type.String(),
  /** usdt paid out at expiry, or received for a sale net of its fee; 0 while open */
  payout: Type.String(),
  createdAt: Type.Number(),
  /** on a position sold back before expiry: the bid per unit it was sold at; settlePrice is the spot then */
  salePrice: Type.Optional(Type.String()),
  /** on a position sold back before expiry: the fee on the sale */
  saleFee: Type.Optional(Type.String()),
})
export type OptionPosition = Static<typeof OptionPosition>
