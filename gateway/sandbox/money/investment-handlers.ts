import type { Handlers } from '../api/handler'
import { page } from '../api/paging'
import { positiveAmount } from '../trading/rules'
import { productsIn, type Investments } from './investments'

// Fixed-term products of both kinds (proxy and finance): the catalogue, subscriptions, holdings, redemptions.

type InvestmentCalls =
  | 'proxyProducts'
  | 'proxySubscribe'
  | 'proxyRecords'
  | 'proxyEarnings'
  | 'proxyRedeem'
  | 'financeProducts'
  | 'financeSubscribe'
  | 'financeOrders'
  | 'financeRedeem'

export function investmentHandlers(investments: Investments): Pick<Handlers, InvestmentCalls> {
  return {
    proxyProducts: ({ language }) => productsIn('proxy', language),
    proxySubscribe: ({ user, body, language }) =>
      investments.subscribe('proxy', user.id, body.productId, positiveAmount(body.amount), language),
    proxyRecords: ({ user, query, language }) => page(investments.list('proxy', user.id, language), query),
    proxyEarnings: ({ user, query }) => page(investments.earnings('proxy', user.id), query),
    proxyRedeem: ({ user, query, language }) =>
      investments.redeem('proxy', user.id, Number(query.id), language),
    financeProducts: ({ language }) => productsIn('finance', language),
    financeSubscribe: ({ user, body, language }) =>
      investments.subscribe('finance', user.id, body.productId, positiveAmount(body.amount), language),
    financeOrders: ({ user, query, language }) => page(investments.list('finance', user.id, language), query),
    financeRedeem: ({ user, query, language }) =>
      investments.redeem('finance', user.id, Number(query.id), language),
  }
}
