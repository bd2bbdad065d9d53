import { useMemo } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { add, showPnl, type OptionPosition } from '@tradegate/shared'
import { useTicker } from '../../../lib/live/stream-hooks'
import { useFormatters } from '../../../lib/use-formatters'
import { Figure } from '../../../components/form-bits'
import { useOptionChain } from '../api/get-option-chain'
import { closedBy, defaultSaleFloor, formatTimeLeft, markOf, saleOf, settledPnl } from '../lib/option-math'
import { SPOT_SAMPLE_MS, useSampled } from '../lib/use-sampled'
import { SellPosition } from './sell-position'

/** One option position: live mark, P&L, what a sale pays and the sale itself while open; the outcome after. */
export function PositionCard({
  position,
  now,
  onSold,
}: {
  position: OptionPosition
  now: number
  onSold: () => void
}) {
  const { t } = useTranslation()
  const { cash, strike, pnl: pnlText } = useFormatters()
  const ticker = useTicker(position.status === 'open' ? position.symbol : null)
  const chain = useOptionChain(position.status === 'open' ? position.coin : null)
  const open = position.status === 'open'
  const spot = useSampled(ticker?.close, SPOT_SAMPLE_MS)
  const second = Math.floor(now / 1000) * 1000
  const mark = useMemo(
    () => (open ? markOf(position, spot, chain.data, second) : null),
    [open, position, spot, chain.data, second],
  )
  const sale = useMemo(
    () => (open && chain.data ? saleOf(position, spot, chain.data, second) : null),
    [open, position, spot, chain.data, second],
  )
  const floor = open && chain.data ? defaultSaleFloor(position, spot, chain.data, second) : null
  const live = open && position.expiresAt > now
  const pnl = open ? mark?.pnl : settledPnl(position)
  // the sign of what is shown, so a loss truncated to zero does not read as red
  const shownPnl = pnl ? showPnl(pnl) : null
  const tone = shownPnl?.startsWith('-') ? 'down' : 'up'

  return (
    <article
      className="position-card option-position"
      data-testid="option-position"
      data-id={position.id}
      data-status={position.status}
      data-outcome={open ? undefined : closedBy(position)}
    >
      <header className="position-head">
        <span className={`tag ${position.kind === 'call' ? 'tag-up' : 'tag-down'}`}>
          {t(`options.${position.kind}`)}
        </span>
        <strong>
          {position.coin.toUpperCase()} <span className="num">{strike(position.strike)}</span>
        </strong>
        <span className={`position-pnl num ${shownPnl ? tone : ''}`}>
          <span data-testid="position-pnl">
            {shownPnl ? `${tone === 'up' ? '+' : ''}${pnlText(pnl)}` : '--'}
          </span>{' '}
          USDT
        </span>
      </header>
      {!open && (
        <p className="option-outcome">
          <span className="tag" data-testid="position-outcome">
            {t(`options.outcome_${closedBy(position)}`)}
          </span>
        </p>
      )}
      <div className="figures two-columns">
        <Figure label={t('options.quantity')}>
          {position.quantity} {position.coin.toUpperCase()}
        </Figure>
        <Figure label={t('options.paid')}>{cash(add(position.cost, position.fee))} USDT</Figure>
        {open ? (
          <>
            <Figure label={t('options.mark')} testId="position-mark">
              {mark ? `${cash(mark.value)} USDT` : '--'}
            </Figure>
            <Figure label={t('options.timeLeft')} testId="position-time-left">
              {live ? formatTimeLeft(position.expiresAt - now) : t('options.settling')}
            </Figure>
            <Figure label={t('options.saleNow')} testId="position-sale">
              {sale ? `${cash(sale.net)} USDT` : '--'}
            </Figure>
          </>
        ) : (
          <ClosedFigures position={position} />
        )}
      </div>
      {live && (
        <SellPosition position={position} net={sale?.net.toFixed() ?? null} floor={floor} onSold={onSold} />
      )}
    </article>
  )
}

/** How a closed position ended: sold back at a bid before expiry, or settled at the feed price. */
function ClosedFigures({ position }: { position: OptionPosition }) {
  const { t } = useTranslation()
  const { price, cash } = useFormatters()
  const sold = closedBy(position) === 'sold'
  return (
    <>
      {sold ? (
        <Figure label={t('options.salePrice')} testId="position-sale-price">
          {cash(position.salePrice)} USDT
        </Figure>
      ) : (
        <Figure label={t('options.settlePrice')}>{price(position.settlePrice)}</Figure>
      )}
      <Figure label={t(sold ? 'options.received' : 'options.payout')} testId="position-payout">
        {cash(position.payout)} USDT
      </Figure>
    </>
  )
}
