import { exchangeFigures } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { page } from '../api/paging'
import { refuse } from '../api/refusal'
import { QUOTE_COIN } from '../markets/catalogue'
import type { SandboxState } from '../state'
import { positiveAmount } from '../trading/rules'
import { text, truncate } from './amounts'
import { knownCoin } from './coin-inputs'
import { coinPlacesOf, requireCoinPlaces } from './precision'
import { EXCHANGE_FEE_RATE, ExchangeQuotes } from './quotes'

// Currency exchange against the house at the market's usdt prices (or a quote of them held for a few
// seconds), less the exchange's fee, and the pairs it offers.

const PRICE_PLACES = 12

type ExchangeCalls = 'currencyPrice' | 'currencyExchange' | 'exchangeList' | 'exchangeQuote'

export function exchangeHandlers(state: SandboxState): Pick<Handlers, ExchangeCalls> {
  const { ledger, market } = state
  const placesOf = coinPlacesOf(state)
  const quotes = new ExchangeQuotes(state.clock)
  const priceOf = (from: string, to: string) =>
    truncate(market.usdtPrice(from).dividedBy(market.usdtPrice(to)), PRICE_PLACES)
  const exchangePairs = market.instruments
    .filter((instrument) => instrument.coinType === 1)
    .flatMap((instrument) => [
      { from: instrument.coin, to: QUOTE_COIN },
      { from: QUOTE_COIN, to: instrument.coin },
    ])
    .map((pair, index) => ({ id: index + 1, ...pair }))

  return {
    currencyPrice: ({ query }) => {
      const [from = '', to = ''] = query.currency.toLowerCase().split(',')
      return { from, to, price: text(priceOf(knownCoin(market, from), knownCoin(market, to))) }
    },

    exchangeQuote: ({ user, query }) => {
      const from = knownCoin(market, query.from)
      const to = knownCoin(market, query.to)
      if (from === to) return refuse('sameCoin')
      return quotes.issue(user.id, from, to, text(priceOf(from, to)))
    },

    currencyExchange: ({ user, body }) => {
      const from = knownCoin(market, body.from)
      const to = knownCoin(market, body.to)
      if (from === to) return refuse('sameCoin')
      const paid = positiveAmount(body.amount)
      requireCoinPlaces(paid, placesOf(from))
      // the quoted price while the quote holds, else the current one; the client's estimate uses the same formula
      const price = body.quoteId ? quotes.redeem(user.id, body.quoteId, from, to) : priceOf(from, to)
      const { fee, received } = exchangeFigures(paid, price, EXCHANGE_FEE_RATE, placesOf(to))
      if (!received.greaterThan(0)) return refuse('amountTooSmall')
      ledger.apply({
        kind: 'exchange',
        note: `${from} to ${to}`,
        legs: [
          { userId: user.id, account: 'platform', coin: from, available: paid.negated() },
          { pool: 'house', coin: from, amount: paid },
          { pool: 'house', coin: to, amount: received.plus(fee).negated() },
          { pool: 'fees', coin: to, amount: fee },
          { userId: user.id, account: 'platform', coin: to, available: received },
        ],
      })
      return { from, to, paid: text(paid), received: text(received), fee: text(fee) }
    },

    exchangeList: ({ query }) => page(exchangePairs, query),
  }
}
