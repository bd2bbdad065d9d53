import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatPercent } from '@tradegate/shared'
import { localiseDecimal } from '../../../lib/intl'
import { useTicker } from '../../../lib/live/stream-hooks'
import { StaleHint, useStaleMark } from '../../../components/feed-status'
import { useFormatters } from '../../../lib/use-formatters'
import { useDepth } from '../api/use-depth'
import { aggregate, bookSteps, groupOf, levelGap, spreadOf, type BookRow } from '../lib/order-book'
import { pickPrice } from '../lib/price-pick'
import { DepthChart } from './depth-chart'

/** The live book of one pair: asks above, spread and mid, bids below; a tapped price fills the form. */
export function OrderBook({
  symbol,
  coin,
  rows,
  own,
}: {
  symbol: string
  coin: string
  rows: number
  /** the user's resting orders on the pair, marked on their levels */
  own: ReadonlyArray<{ price: string; side: 'bid' | 'ask' }>
}) {
  const { t, i18n } = useTranslation()
  const book = useDepth(symbol)
  const ticker = useTicker(symbol)
  const { price: formatPrice, amount } = useFormatters()
  const steps = bookSteps(book?.bids[0]?.[0] ?? ticker?.close ?? '1', levelGap(book?.bids ?? []))
  const [stepIndex, setStepIndex] = useState(0)
  const step = steps[Math.min(stepIndex, steps.length - 1)] ?? '0.01'
  const asks = aggregate(book?.asks ?? [], step, 'ask', rows)
  const bids = aggregate(book?.bids ?? [], step, 'bid', rows)
  const deepest = Math.max(Number(asks.at(-1)?.cumulative ?? 0), Number(bids.at(-1)?.cumulative ?? 0), 1e-18)
  const figures = spreadOf(book)
  const stepPlaces = steps[0]?.split('.')[1]?.length ?? 0
  const { stale, mark } = useStaleMark()
  const ownGroups = new Set(own.map((order) => `${order.side}|${groupOf(order.price, step, order.side)}`))
  // a level is keyed by its place from the spread, not its price: as prices move the rows keep their
  // places and only their text changes, so the screen does not shift (Lighthouse CLS)
  const level = (row: BookRow, side: 'bid' | 'ask', place: number) => (
    <li key={place}>
      <button
        type="button"
        className={`book-row ${side}`}
        onClick={() => pickPrice(symbol, row.price)}
        data-testid={`book-${side}`}
        data-price={row.price}
        data-own={ownGroups.has(`${side}|${row.price}`) || undefined}
        aria-label={
          ownGroups.has(`${side}|${row.price}`) ? t('desk.yourOrderAt', { price: row.price }) : undefined
        }
        style={{ '--depth': `${(Number(row.cumulative) / deepest) * 100}%` } as React.CSSProperties}
      >
        <span className={`num ${side === 'bid' ? 'up' : 'down'}`}>
          {localiseDecimal(row.price, i18n.language)}
        </span>
        <span className="num">{amount(row.quantity, 4)}</span>
        <span className="num muted">{amount(row.cumulative, 4)}</span>
      </button>
    </li>
  )
  return (
    <div
      className="order-book"
      data-testid="order-book"
      data-seq={book?.seq ?? ''}
      aria-busy={!book}
      {...mark}
    >
      <StaleHint stale={stale} />
      <div className="book-head">
        <span>{t('trade.price')}</span>
        <span>
          {t('trade.quantity')} ({coin.toUpperCase()})
        </span>
        <span>{t('desk.total')}</span>
      </div>
      <ol className="book-side asks">{asks.map((row, place) => level(row, 'ask', place)).reverse()}</ol>
      <div className="book-spread" data-testid="book-spread">
        {figures ? (
          <>
            <span className="num">
              {t('desk.mid')} {formatPrice(figures.mid)}
            </span>
            <span className="num muted">
              {t('desk.spread')} {localiseDecimal(figures.spread.toFixed(stepPlaces), i18n.language)} (
              {formatPercent(figures.percent)}%)
            </span>
          </>
        ) : (
          <span className="muted">{t('desk.bookWaiting')}</span>
        )}
      </div>
      <ol className="book-side bids">{bids.map((row, place) => level(row, 'bid', place))}</ol>
      <label className="book-step">
        <span className="muted">{t('desk.grouping')}</span>
        <select
          value={stepIndex}
          onChange={(event) => setStepIndex(Number(event.target.value))}
          data-testid="book-step"
        >
          {steps.map((choice, index) => (
            <option key={choice} value={index}>
              {localiseDecimal(choice, i18n.language)}
            </option>
          ))}
        </select>
      </label>
      <DepthChart bids={bids} asks={asks} />
    </div>
  )
}
