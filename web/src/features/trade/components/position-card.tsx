import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatAmount, formatPercent, toDecimal, type LossSetting, type Position } from '@tradegate/shared'
import { useTicker } from '../../../lib/live'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { adjustMargin } from '../api/adjust-margin'
import { cancelLoss } from '../api/cancel-loss'
import { setLoss } from '../api/set-loss'
import { stopPosition } from '../api/stop-position'
import { livePnl, pnlPercent, sanitiseAmount } from '../lib/order-math'
import { AmountInput, Figure, OrderError } from './form-bits'
import { useOrderSubmit } from './order-submit'

type Editor = 'margin' | 'loss' | null

/** One open position: PnL that follows the live price, and close, margin and stop controls. */
export function PositionCard({
  position,
  shareNumber,
  loss,
  onChanged,
}: {
  position: Position
  shareNumber: string
  loss: LossSetting | undefined
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const ticker = useTicker(position.symbol)
  const { price, amount } = useFormatters()
  const [editor, setEditor] = useState<Editor>(null)
  const { submitting, error, run } = useOrderSubmit(onChanged)
  const mark = ticker?.close ?? position.openPrice
  const pnl = ticker ? livePnl(position, mark, shareNumber) : toDecimal(position.pnl)
  // the sign of what is shown, so a loss truncated to zero does not read as red
  const tone = formatAmount(pnl, 4).startsWith('-') ? 'down' : 'up'

  const close = () =>
    void run(async () => {
      await stopPosition(position.id)
      showToast(t('trade.positionClosed'))
    })

  return (
    <article className="position-card" data-testid="position" data-position-id={position.id}>
      <header className="position-head">
        <span className={`tag ${position.direction === 'long' ? 'tag-up' : 'tag-down'}`}>
          {t(`trade.${position.direction}`)} {position.leverage}×
        </span>
        <strong>{position.symbol.toUpperCase().replace(/USDT$/, '/USDT')}</strong>
        <span className={`position-pnl num ${tone}`}>
          <span data-testid="position-pnl">
            {tone === 'up' ? '+' : ''}
            {amount(pnl, 4)}
          </span>{' '}
          USDT
          <small>
            {' '}
            ({tone === 'up' ? '+' : ''}
            {formatPercent(pnlPercent(pnl, position.margin))}%)
          </small>
        </span>
      </header>
      <div className="figures two-columns">
        <Figure label={t('trade.shares')}>{position.shares}</Figure>
        <Figure label={t('trade.openPrice')}>{price(position.openPrice)}</Figure>
        <Figure label={t('trade.markPrice')}>{price(mark)}</Figure>
        <Figure label={t('trade.margin')} testId="position-margin">
          {amount(position.margin, 4)}
        </Figure>
        <Figure label={t('trade.liquidationPrice')}>{price(position.liquidationPrice)}</Figure>
        <Figure label={t('trade.stopLossTakeProfit')} testId="position-loss">
          {loss
            ? `${loss.stopLoss === '0' ? '--' : price(loss.stopLoss)} / ${loss.takeProfit === '0' ? '--' : price(loss.takeProfit)}`
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
          {t('trade.stopLossTakeProfit')}
        </button>
        <button
          type="button"
          className="button button-small button-down"
          disabled={submitting}
          onClick={close}
          data-testid="close-position"
        >
          {t('trade.closePosition')}
        </button>
      </div>
      {editor === 'margin' && <MarginEditor position={position} onChanged={onChanged} />}
      {editor === 'loss' && <LossEditor position={position} loss={loss} onChanged={onChanged} />}
      <OrderError message={error} />
    </article>
  )
}

function MarginEditor({ position, onChanged }: { position: Position; onChanged: () => void }) {
  const { t } = useTranslation()
  const [money, setMoney] = useState('')
  const { submitting, error, run } = useOrderSubmit(onChanged)
  const adjust = (direction: 'add' | 'remove') =>
    void run(async () => {
      await adjustMargin(position.id, money, direction)
      showToast(t('trade.marginAdjusted'))
      setMoney('')
    })
  return (
    <div className="inline-form" data-testid="margin-editor">
      <AmountInput
        label={t('trade.marginAmount')}
        name={`margin-${position.id}`}
        unit="usdt"
        value={money}
        onChange={(text) => setMoney(sanitiseAmount(text, 8))}
      />
      <div className="position-actions">
        <button
          type="button"
          className="button button-small button-up"
          disabled={!money || submitting}
          onClick={() => adjust('add')}
          data-testid="margin-add"
        >
          {t('trade.addMargin')}
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={!money || submitting}
          onClick={() => adjust('remove')}
          data-testid="margin-remove"
        >
          {t('trade.removeMargin')}
        </button>
      </div>
      <OrderError message={error} />
    </div>
  )
}

function LossEditor({
  position,
  loss,
  onChanged,
}: {
  position: Position
  loss: LossSetting | undefined
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const [stopLoss, setStopLoss] = useState('')
  const [takeProfit, setTakeProfit] = useState('')
  const { submitting, error, run } = useOrderSubmit(onChanged)
  const save = () =>
    void run(async () => {
      await setLoss({
        positionId: position.id,
        ...(stopLoss ? { stopLoss } : {}),
        ...(takeProfit ? { takeProfit } : {}),
      })
      showToast(t('trade.lossSaved'))
      setStopLoss('')
      setTakeProfit('')
    })
  const cancel = (id: number) =>
    void run(async () => {
      await cancelLoss(id)
      showToast(t('trade.lossCancelled'))
    })
  return (
    <div className="inline-form" data-testid="loss-editor">
      <AmountInput
        label={t('trade.stopLossPrice')}
        name={`stop-loss-${position.id}`}
        unit="usdt"
        value={stopLoss}
        onChange={(text) => setStopLoss(sanitiseAmount(text, 10))}
      />
      <AmountInput
        label={t('trade.takeProfitPrice')}
        name={`take-profit-${position.id}`}
        unit="usdt"
        value={takeProfit}
        onChange={(text) => setTakeProfit(sanitiseAmount(text, 10))}
      />
      <div className="position-actions">
        <button
          type="button"
          className="button button-small button-primary"
          disabled={(!stopLoss && !takeProfit) || submitting}
          onClick={save}
          data-testid="loss-save"
        >
          {t('trade.saveLoss')}
        </button>
        {loss && (
          <button
            type="button"
            className="button button-small"
            disabled={submitting}
            onClick={() => cancel(loss.id)}
            data-testid="loss-cancel"
          >
            {t('trade.cancelLoss')}
          </button>
        )}
      </div>
      <OrderError message={error} />
    </div>
  )
}
