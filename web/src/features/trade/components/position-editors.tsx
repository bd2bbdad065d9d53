import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LossSetting, Position } from '@tradegate/shared'
import { showToast } from '../../../lib/toast'
import { adjustMargin } from '../api/adjust-margin'
import { cancelLoss } from '../api/cancel-loss'
import { setLoss } from '../api/set-loss'
import { sanitiseAmount } from '../../../lib/order-math'
import { AmountInput, OrderError } from '../../../components/form-bits'
import { useOrderSubmit } from '../../../lib/order-submit'

// The forms a position card opens: margin, and stop loss / take profit.

export function MarginEditor({ position, onChanged }: { position: Position; onChanged: () => void }) {
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

export function LossEditor({
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
