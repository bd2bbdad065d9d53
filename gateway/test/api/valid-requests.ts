import type { CallName } from '@tradegate/shared'

// One valid request of each call that carries an amount or a whole number, for the tests of the
// money rule and the whole-number rule: the value under test replaces one field, so whatever the
// gateway refuses is that value and nothing else.

const ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'

/** A valid body (or query, for a call whose amount is a query field) of each call the two rules judge. */
export const VALID: Partial<Record<CallName, Record<string, unknown>>> = {
  transferFunds: { coin: 'usdt', from: 'platform', to: 'contract', amount: '1' },
  rechargeSubmit: { coin: 'usdt', amount: '100' },
  withdrawSubmit: { coin: 'usdt', amount: '20', address: ADDRESS, pwd: 'secret12' },
  currencyExchange: { from: 'usdt', to: 'btc', amount: '10' },
  optionOrderSubmit: {
    coin: 'btc',
    expiresAt: 1,
    strike: '67000',
    kind: 'call',
    quantity: '1',
    maxPremium: '100',
  },
  optionOrderSell: { id: 1, minPrice: '1' },
  spotOrderSubmit: { symbol: 'btcusdt', side: 'buy', type: 'limit', price: '67250', amount: '0.01' },
  secondOrderCreate: { symbol: 'btcusdt', periodId: 1, direction: 'up', amount: '10' },
  secondOrderList: { pageNum: 1, pageSize: 10 },
  contractOrderSubmit: {
    symbol: 'btcusdt',
    direction: 'long',
    type: 'limit',
    price: '67250',
    leverage: 10,
    shares: '1',
    triggerPrice: '67000',
  },
  contractOrderAmend: { id: 1, price: '67250', shares: '1', triggerPrice: '67000' },
  positionStop: { id: '1', shares: '1', price: '67250' },
  positionAdjustMargin: { id: '1', money: '1', flag: '1' },
  lossSet: { positionId: 1, stopLoss: '60000', takeProfit: '70000' },
  followStart: { traderId: 1, amount: '100' },
  traderApply: { nickname: 'trader', amount: '100' },
  proxySubscribe: { productId: 1, amount: '100' },
  financeSubscribe: { productId: 1, amount: '100' },
}
