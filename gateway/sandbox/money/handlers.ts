import { toDecimal, type FinancialRecord } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { page } from '../api/paging'
import { refuse } from '../api/refusal'
import { QUOTE_COIN } from '../markets/catalogue'
import type { SandboxState } from '../state'
import { text, truncate } from './amounts'
import { localDayStart } from './calendar'
import { publicRequest, type Cashier } from './cashier'
import type { Investments } from './investments'
import { productsIn } from './investments'
import type { UserRecord } from './ledger'
import { coinPlacesOf, requireCoinPlaces } from './precision'

// Balances, transfers, deposits, withdrawals, currency exchange, records and fixed-term products.

const PRICE_PLACES = 12

type MoneyCalls =
  | 'assetBalance'
  | 'transferFunds'
  | 'getAppCurrencyList'
  | 'getWithDrawCoinList'
  | 'payAddress'
  | 'rechargeSubmit'
  | 'rechargeList'
  | 'rechargeBonusList'
  | 'rechargeAddress'
  | 'withdrawFreezeList'
  | 'withdrawSubmit'
  | 'withdrawList'
  | 'withdrawStatus'
  | 'financialRecords'
  | 'brokerRecords'
  | 'currencyPrice'
  | 'currencyExchange'
  | 'exchangeList'
  | 'getProfit'
  | 'proxyProducts'
  | 'proxySubscribe'
  | 'proxyRecords'
  | 'proxyEarnings'
  | 'financeProducts'
  | 'financeSubscribe'
  | 'financeOrders'
  | 'financeRedeem'
  | 'proxyRedeem'

export function moneyHandlers(
  state: SandboxState,
  cashier: Cashier,
  investments: Investments,
): Pick<Handlers, MoneyCalls> {
  const { ledger, market, settings } = state
  const placesOf = coinPlacesOf(state)

  const knownCoin = (coin: string) => {
    const lower = coin.toLowerCase()
    if (lower !== QUOTE_COIN && !market.instrumentOfCoin(lower)) refuse('unknownCoin')
    return lower
  }
  const positive = (value: string | number) => {
    const amount = toDecimal(value)
    return amount.greaterThan(0) ? amount : refuse('amountMustBePositive')
  }
  const priceOf = (from: string, to: string) =>
    truncate(market.usdtPrice(from).dividedBy(market.usdtPrice(to)), PRICE_PLACES)
  const records = (userId: string, keep: (record: UserRecord) => boolean): FinancialRecord[] =>
    ledger
      .records(userId)
      .filter(keep)
      .map(({ userId: _owner, ...record }) => record)
  const exchangePairs = market.instruments
    .filter((instrument) => instrument.coinType === 1)
    .flatMap((instrument) => [
      { from: instrument.coin, to: QUOTE_COIN },
      { from: QUOTE_COIN, to: instrument.coin },
    ])
    .map((pair, index) => ({ id: index + 1, ...pair }))

  return {
    assetBalance: ({ user }) => ledger.balances(user.id),

    transferFunds: ({ user, body }) => {
      if (body.from === body.to) return refuse('sameAccount')
      const coin = knownCoin(body.coin)
      const amount = positive(body.amount)
      requireCoinPlaces(amount, placesOf(coin))
      ledger.apply({
        kind: 'transfer',
        note: `${body.from} to ${body.to}`,
        legs: [
          { userId: user.id, account: body.from, coin, available: amount.negated() },
          { userId: user.id, account: body.to, coin, available: amount },
        ],
      })
      return null
    },

    getAppCurrencyList: () =>
      cashier.channels().map((channel) => ({
        coinName: `${channel.coin.toUpperCase()}-${channel.chain}`,
        coin: channel.coin,
        coinAddress: '',
        rechargeMin: channel.min,
        rechargeMax: channel.max,
        rechargeNum: channel.count,
        useSys: true,
        useThird: false,
        thirdList: [],
      })),

    getWithDrawCoinList: () => {
      const rules = settings.current.WITHDRAWAL_SETTING
      return cashier.channels().map((channel) => {
        const isTaxCoin = channel.coin === rules.coinTax
        return {
          rechargeName: `${channel.coin.toUpperCase()}-${channel.chain}`,
          rechargeType: channel.chain,
          fee: '0',
          ratio: rules.ratio,
          dayWithdrawalNum: rules.dayCount,
          freeNum: rules.freeCount,
          withdrawalMax: isTaxCoin ? rules.max : channel.max,
          withdrawalMix: isTaxCoin ? rules.min : channel.min,
          useSys: true,
          useThird: false,
          thirdList: [],
        }
      })
    },

    payAddress: ({ user, body }) => {
      const channel = cashier.channel(body.coin.toLowerCase(), body.chain)
      return {
        coin: channel.coin,
        chain: channel.chain,
        address: cashier.depositAddress(user.id, channel.coin, channel.chain),
      }
    },

    rechargeSubmit: ({ user, body }) =>
      publicRequest(cashier.submitRecharge(user, body.coin.toLowerCase(), positive(body.amount), body.chain)),

    rechargeList: ({ user, query }) =>
      page(
        cashier
          .rechargesOf(user.id)
          .filter((row) => !query.coin || row.coin === query.coin.toLowerCase())
          .map(publicRequest),
        query,
      ),

    rechargeBonusList: ({ user, query }) =>
      page(
        records(user.id, (record) => record.kind === 'bonus'),
        query,
      ),

    rechargeAddress: ({ user, query }) => {
      const coin = query.coin.toLowerCase()
      const channels = cashier.channels().filter((row) => row.coin === coin)
      const chosen = query.symbol ? channels.filter((row) => row.chain === query.symbol) : channels
      if (chosen.length === 0) return refuse(channels.length ? 'unsupportedChain' : 'unsupportedCoin')
      const addresses: Record<string, string> = {}
      for (const channel of chosen) {
        addresses[`${coin}-${channel.chain}`] = cashier.depositAddress(user.id, coin, channel.chain)
      }
      // keyed by the bare coin name too: the client looks it up that way
      addresses[coin] = cashier.depositAddress(user.id, coin, chosen[0]!.chain)
      return addresses
    },

    withdrawFreezeList: ({ user }) =>
      cashier
        .withdrawalsOf(user.id)
        .filter((row) => row.status === 'frozen' || row.status === 'pending')
        .map(publicRequest),

    withdrawSubmit: ({ user, query }) =>
      publicRequest(
        cashier.submitWithdrawal(user, {
          coin: query.coin.toLowerCase(),
          amount: toDecimal(query.amount),
          address: query.address,
          pwd: query.pwd,
          places: placesOf(query.coin.toLowerCase()),
          ...(query.memo ? { memo: query.memo } : {}),
          ...(query.chain ? { chain: query.chain } : {}),
        }),
      ),

    withdrawList: ({ user, query }) =>
      page(
        cashier
          .withdrawalsOf(user.id)
          .filter((row) => !query.coin || row.coin === query.coin.toLowerCase())
          .map(publicRequest),
        query,
      ),

    withdrawStatus: ({ user }) => cashier.withdrawStatus(user.id),

    financialRecords: ({ user, query }) =>
      page(
        records(
          user.id,
          (record) =>
            (!query.coin || record.coin === query.coin.toLowerCase()) &&
            (!query.kind || record.kind === query.kind),
        ),
        query,
      ),

    brokerRecords: ({ user, query }) =>
      page(
        records(user.id, (record) => record.kind === 'rebate'),
        query,
      ),

    currencyPrice: ({ query }) => {
      const [from = '', to = ''] = query.currency.toLowerCase().split(',')
      return { from, to, price: text(priceOf(knownCoin(from), knownCoin(to))) }
    },

    currencyExchange: ({ user, body }) => {
      const from = knownCoin(body.from)
      const to = knownCoin(body.to)
      if (from === to) return refuse('sameCoin')
      const paid = positive(body.amount)
      requireCoinPlaces(paid, placesOf(from))
      // settled at the received coin's precision, the precision the client's estimate is shown at
      const received = truncate(
        paid.times(market.usdtPrice(from)).dividedBy(market.usdtPrice(to)),
        placesOf(to),
      )
      if (!received.greaterThan(0)) return refuse('amountTooSmall')
      ledger.apply({
        kind: 'exchange',
        note: `${from} to ${to}`,
        legs: [
          { userId: user.id, account: 'platform', coin: from, available: paid.negated() },
          { pool: 'house', coin: from, amount: paid },
          { pool: 'house', coin: to, amount: received.negated() },
          { userId: user.id, account: 'platform', coin: to, available: received },
        ],
      })
      return { from, to, paid: text(paid), received: text(received) }
    },

    exchangeList: ({ query }) => page(exchangePairs, query),

    getProfit: ({ user }) => {
      const start = localDayStart(state.clock(), settings.current.DEFAULT_TIME_ZONE.offset)
      return {
        today: text(state.profits.since(user.id, start)),
        total: text(state.profits.since(user.id, 0)),
      }
    },

    proxyProducts: ({ language }) => productsIn('proxy', language),
    proxySubscribe: ({ user, body, language }) =>
      investments.subscribe('proxy', user.id, body.productId, positive(body.amount), language),
    proxyRecords: ({ user, query, language }) => page(investments.list('proxy', user.id, language), query),
    proxyEarnings: ({ user, query }) => page(investments.earnings('proxy', user.id), query),
    financeProducts: ({ language }) => productsIn('finance', language),
    financeSubscribe: ({ user, body, language }) =>
      investments.subscribe('finance', user.id, body.productId, positive(body.amount), language),
    financeOrders: ({ user, query, language }) => page(investments.list('finance', user.id, language), query),
    financeRedeem: ({ user, query, language }) =>
      investments.redeem('finance', user.id, Number(query.id), language),
    proxyRedeem: ({ user, query, language }) =>
      investments.redeem('proxy', user.id, Number(query.id), language),
  }
}
