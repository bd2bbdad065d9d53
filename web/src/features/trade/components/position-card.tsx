import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { showPnl, toDecimal, type LossSetting, type Position } from '@tradegate/shared'
import { useTicker } from '../../../lib/live/stream-hooks'
import { useFormatters } from '../../../lib/use-formatters'
import { livePnl, pnlPercent } from '../../../lib/order-math'
import { ClosePositionForm } from './close-position'
import { Figure } from '../../../components/form-bits'
import { LossEditor, MarginEditor } from './position-editors'

type Editor = 'margin' | 'loss' | 'close' | null

/** One open position: PnL that follows the live price, and close, margin and stop controls. */
export function PositionCard({
  position,
  shareNumber,
  tickPlaces,
  loss,
  onChanged,
}: {
  position: Position
  shareNumber: string
  /** the pair's price places: every price of the card is shown at its tick */
  tickPlaces: number
  loss: LossSetting | undefined
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const ticker = useTicker(position.symbol)
  const { price: anyPrice, pnl: showPnlText, cash, percent } = useFormatters()
  const price = (value: unknown) => anyPrice(value, tickPlaces)
  const [editor, setEditor] = useState<Editor>(null)
  // PnL and liquidation follow the exchange's mark price, not a lone last trade
  const mark = ticker?.markPrice ?? position.markPrice ?? ticker?.close ?? position.openPrice
  const pnl = ticker ? livePnl(position, mark, shareNumber) : toDecimal(position.pnl)
  // the sign of what is shown, so a loss truncated to zero does not read as red
  const tone = showPnl(pnl).startsWith('-') ? 'down' : 'up'

  return (
    <article className="position-card" data-testid="position" data-position-id={position.id}>
      <header className="position-head">
        <span className={`tag nowrap ${position.direction === 'long' ? 'tag-up' : 'tag-down'}`}>
          {t(`trade.${position.direction}`)} <span className="num">{position.leverage}×</span>
        </span>
        <strong>{position.symbol.toUpperCase().replace(/USDT$/, '/USDT')}</strong>
        <span className={`position-pnl num ${tone}`}>
          <span data-testid="position-pnl">
            {tone === 'up' ? '+' : ''}
            {showPnlText(pnl)}
          </span>{' '}
          USDT
          <small>
            {' '}
            ({tone === 'up' ? '+' : ''}
            {percent(pnlPercent(pnl, position.margin))}%)
          </small>
        </span>
      </header>
      <div className="figures two-columns">
        <Figure label={t('trade.shares')}>{position.shares}</Figure>
        <Figure label={t('trade.openPrice')}>{price(position.openPrice)}</Figure>
        <Figure label={t('trade.markPrice')} testId="position-mark">
          {price(mark)}
        </Figure>
        <Figure label={t('trade.margin')} testId="position-margin">
          {cash(position.margin)}
        </Figure>
        <Figure label={t('trade.liquidationPrice')}>{price(position.liquidationPrice)}</Figure>
        {position.funding && (
          <Figure label={t('trade.futures.funding')} testId="position-funding">
            {showPnlText(position.funding)}
          </Figure>
        )}
        <Figure label={t('trade.takeProfitStopLoss')} testId="position-loss">
          {loss
            ? `${loss.takeProfit === '0' ? '--' : price(loss.takeProfit)} / ${loss.stopLoss === '0' ? '--' : price(loss.stopLoss)}${loss.triggerBy === 'mark' ? ` · ${t('trade.markPrice')}` : ''}`
            : '--'}
        </Figure>
      </div>
      <div className="position-actions">
        <button
          type="button"
          className="button button-small"
          aria-expanded={editor === 'margin'}
          onClick={() => setEditor(editor === 'margin' ? null : 'margin')}
          data-testid="adjust-margin"
        >
          {t('trade.adjustMargin')}
        </button>
        <button
          type="button"
          className="button button-small"
          aria-expanded={editor === 'loss'}
          onClick={() => setEditor(editor === 'loss' ? null : 'loss')}
          data-testid="edit-loss"
        >
          {t('trade.takeProfitStopLoss')}
        </button>
        <button
          type="button"
          className="button button-small button-down"
          aria-expanded={editor === 'close'}
          onClick={() => setEditor(editor === 'close' ? null : 'close')}
          data-testid="close-position"
        >
          {t('trade.closePosition')}
        </button>
      </div>
      {editor === 'margin' && <MarginEditor position={position} onChanged={onChanged} />}
      {editor === 'loss' && (
        <LossEditor position={position} loss={loss} currentPrice={mark} onChanged={onChanged} />
      )}
      {editor === 'close' && (
        <ClosePositionForm
          position={position}
          markPrice={mark}
          onCancel={() => setEditor(null)}
          onChanged={() => {
            setEditor(null)
            onChanged()
          }}
        />
      )}
    </article>
  )
}
