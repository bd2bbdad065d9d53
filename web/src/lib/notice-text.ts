import type { NoticeSide, UserNotice } from '@tradegate/shared'
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
type Formatters = Pick<ReturnType<typeof useFormatters>, 'price' | 'money' | 'decimal'>

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
    amount: notice.amount === undefined ? '' : format.money(notice.amount, coin),
    coin: coin.toUpperCase(),
    outcome: notice.outcome ? t(`notices.outcome.${notice.outcome}`) : '',
  }
  // a deposit keeps the words it was always announced with
  if (notice.kind === 'deposit')
    return t('balances.depositArrived', { amount: values.amount, coin: values.coin })
  return t(`notices.kind.${notice.kind}`, values)
}
