import type { NoticeKind, NoticeSide, UserNotice } from '@tradegate/shared'
import type { useFormatters } from './use-formatters'

// The words of one event (shared/src/notices.ts), the same in the toast and in the notification
// centre: what happened, the instrument, the side, the size and the price, and the money it made.

type Translate = (key: string, values?: Record<string, unknown>) => string

/** The words for each side, shared with the trading screens. */
const SIDE_KEYS: Readonly<Record<NoticeSide, string>> = {
  buy: 'trade.buy',
  sell: 'trade.sell',
  long: 'trade.long',
  short: 'trade.short',
  up: 'trade.up',
  down: 'trade.down',
  call: 'options.call',
  put: 'options.put',
}
type Formatters = Pick<ReturnType<typeof useFormatters>, 'price' | 'money' | 'decimal' | 'pnl' | 'cash'>

/**
 * Which display rule an event's money follows: a close's or a settlement's profit and a funding
 * payment are PnL, an option's payout is cash; deposits and withdrawals keep the coin's places.
 */
const AMOUNT_RULES: Partial<Record<NoticeKind, 'pnl' | 'cash'>> = {
  closeFilled: 'pnl',
  takeProfit: 'pnl',
  stopLoss: 'pnl',
  liquidated: 'pnl',
  funding: 'pnl',
  secondSettled: 'pnl',
  optionSettled: 'cash',
}

function amountText(notice: UserNotice, coin: string, format: Formatters): string {
  if (notice.amount === undefined) return ''
  const rule = AMOUNT_RULES[notice.kind]
  return rule ? format[rule](notice.amount) : format.money(notice.amount, coin)
}

/** btcusdt -> BTC/USDT */
export function instrumentName(symbol: string): string {
  return symbol.toUpperCase().replace(/USDT$/, '/USDT')
}

/** The sentence announcing `notice`, in the page's language. */
export function noticeText(t: Translate, notice: UserNotice, format: Formatters): string {
  const coin = notice.coin ?? 'usdt'
  // a contract's size is in shares, not coins
  const contract = notice.side === 'long' || notice.side === 'short'
  const qty = notice.qty === undefined ? '' : format.decimal(notice.qty)
  const values = {
    instrument: notice.symbol ? instrumentName(notice.symbol) : '',
    side: notice.side ? t(SIDE_KEYS[notice.side]) : '',
    qty: contract && qty ? `${qty} ${t('trade.sharesUnit')}` : qty,
    price: notice.price === undefined ? '' : format.price(notice.price),
    amount: amountText(notice, coin, format),
    coin: coin.toUpperCase(),
    outcome: notice.outcome ? t(`notices.outcome.${notice.outcome}`) : '',
  }
  // a deposit keeps the words it was always announced with
  if (notice.kind === 'deposit')
    return t('balances.depositArrived', { amount: values.amount, coin: values.coin })
  return t(`notices.kind.${notice.kind}`, values)
}
