import { memo, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { localiseDecimal } from '../../../lib/intl'
import { useTicker } from '../../../lib/live/stream-hooks'
import { StaleHint, useStaleMark } from '../../../components/feed-status'
import { useFormatters } from '../../../lib/use-formatters'
import { quoteOf } from '../../../lib/market-rows'
import { useDepth } from '../api/use-depth'
import { aggregate, bookSteps, groupOf, levelGap, spreadOf, type BookRow } from '../lib/order-book'
import { pickPrice } from '../lib/price-pick'
import { DepthChart } from './depth-chart'

/**
 * One level of the book, as text: a flush re-renders the levels whose figures changed and skips the
 * rest (memo), where the book's 14 to 24 rows were otherwise all rendered on every depth update.
 */
const BookLevel = memo(function BookLevel({
  symbol,
  side,
  price,
  priceText,
  quantityText,
  cumulativeText,
  depth,
  ownLabel,
}: {
  symbol: string
  side: 'bid' | 'ask'
  price: string
  priceText: string
  quantityText: string
  cumulativeText: string
  /** the level's share of the deepest cumulative quantity shown, as a CSS percentage */
  depth: string
  /** what a screen reader hears on a level holding the user's own order; undefined on the rest */
  ownLabel: string | undefined
}) {
  return (
    <li>
      <button
        type="button"
        className={`book-row ${side}`}
        onClick={() => pickPrice(symbol, price)}
        data-testid={`book-${side}`}
        data-price={price}
        data-own={ownLabel !== undefined || undefined}
        aria-label={ownLabel}
        style={{ '--depth': depth } as React.CSSProperties}
      >
        <span className={`num ${side === 'bid' ? 'up' : 'down'}`}>{priceText}</span>
        <span className="num">{quantityText}</span>
        <span className="num muted">{cumulativeText}</span>
      </button>
    </li>
  )
})

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
  // the ticker's price sizes the grouping steps until the book's first snapshot, then the book does
  // (reading it after would re-render the whole book on every tick of the ticker)
  const ticker = useTicker(book ? null : symbol)
  const { price: formatPrice, quantity, percent } = useFormatters()
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
  const level = (row: BookRow, side: 'bid' | 'ask', place: number) => {
    const own = ownGroups.has(`${side}|${row.price}`)
    // a level is keyed by its place from the spread, not its price: as prices move the rows keep their
    // places and only their text changes, so the screen does not shift (Lighthouse CLS)
    return (
      <BookLevel
        key={place}
        symbol={symbol}
        side={side}
        price={row.price}
        priceText={localiseDecimal(row.price, i18n.language)}
        quantityText={quantity(row.quantity, 4)}
        cumulativeText={quantity(row.cumulative, 4)}
        depth={`${(Number(row.cumulative) / deepest) * 100}%`}
        ownLabel={own ? t('desk.yourOrderAt', { price: row.price }) : undefined}
      />
    )
  }
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
        <span>{t('common.withUnit', { name: t('trade.price'), unit: quoteOf({ symbol, coin }) })}</span>
        <span>{t('common.withUnit', { name: t('trade.quantity'), unit: coin.toUpperCase() })}</span>
        <span>{t('common.withUnit', { name: t('desk.total'), unit: coin.toUpperCase() })}</span>
      </div>
      <ol className="book-side asks">{asks.map((row, place) => level(row, 'ask', place)).reverse()}</ol>
      <div className="book-spread" data-testid="book-spread">
        {figures ? (
          <>
            <span>
              {t('desk.mid')} <span className="num">{formatPrice(figures.mid)}</span>
            </span>
            <span className="muted">
              {t('desk.spread')}{' '}
              <span className="num">
                {formatPrice(figures.spread, stepPlaces)} ({percent(figures.percent)}%)
              </span>
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
